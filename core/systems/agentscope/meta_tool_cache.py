"""The one place toolscope reaches into AgentScope 2.x's meta tool: its template and its schema.

``ResetTools.call`` builds ``jinja2.Template(self.response_template)`` on every call, through
the name ``Template`` imported into the private module ``agentscope.tool._builtin._meta``.
Compiling that template is most of what a replayed ``reset_tools`` call costs (a 100k-turn
session spent minutes in Jinja's compiler), and its source never changes. ``install()``
points that module's ``Template`` at a factory that compiles each distinct source once and
hands back the same compiled template: rendering is unchanged (a ``Template`` renders from
its arguments only).

The rest of a replayed call is ``ResetTools.input_schema``: a property that builds a pydantic
model from the groups and asks it for its JSON schema, twice per call and lane (the toolkit
validates the call's input with it, and the visible-tool list reads it). It depends only on
the groups' names and descriptions, so ``install()`` wraps the property: one schema per
distinct (name, description) list, each caller getting its own deep copy.

Only on the AgentScope releases it was checked against (``TESTED``, exact versions) and only
when the name is still ``jinja2.Template``; anything else leaves AgentScope as it is (only the
speed is lost). ``tests/test_private_apis.py`` fails when the name or its use changes.

Public API::

    install() -> bool        (idempotent; True when the cache is in place)
"""

from __future__ import annotations

import copy
import functools
import importlib
from typing import Any

PRIVATE_TEMPLATE = ("agentscope.tool._builtin._meta", "Template")
"""(module, name) of the Template class the stock meta tool compiles its response with."""

TESTED = frozenset({"2.0.6", "2.0.7", "2.0.8", "2.0.9", "2.0.10", "2.0.11"})
"""AgentScope releases whose meta tool was read and checked: the cache is installed only on these."""

MAX_TEMPLATES = 64
"""Distinct response templates kept compiled (a toolkit has one; a user's own may vary)."""

_STATE: dict[str, bool] = {}


def install() -> bool:
    """Cache the meta tool's compiled template (once); True when the cache is in place."""
    if "installed" in _STATE:
        return _STATE["installed"]
    _STATE["installed"] = _install()
    return _STATE["installed"]


def _install() -> bool:
    try:
        import agentscope
        import jinja2

        module = importlib.import_module(PRIVATE_TEMPLATE[0])
    except ImportError:
        return False
    if getattr(agentscope, "__version__", None) not in TESTED:
        return False
    if getattr(module, PRIVATE_TEMPLATE[1], None) is not jinja2.Template:
        return False  # another release renamed or replaced it: leave AgentScope alone

    @functools.lru_cache(maxsize=MAX_TEMPLATES)
    def compiled(source: str) -> Any:
        return jinja2.Template(source)

    def cached_template(source: Any, *args: Any, **kwargs: Any) -> Any:
        if args or kwargs or not isinstance(source, str):
            return jinja2.Template(source, *args, **kwargs)
        return compiled(source)

    setattr(module, PRIVATE_TEMPLATE[1], cached_template)
    _cache_input_schema(module.ResetTools)
    return True


ORIGINAL_SCHEMA: list[Any] = []
"""The stock ``ResetTools.input_schema`` property, kept for the tests and the benchmark."""


def _cache_input_schema(reset_tools: type) -> None:
    stock = reset_tools.__dict__.get("input_schema")
    if not isinstance(stock, property) or stock.fget is None:
        return
    build = stock.fget
    ORIGINAL_SCHEMA.append(stock)
    schemas: dict[tuple[tuple[str, str], ...], dict[str, Any]] = {}

    def input_schema(self: Any) -> dict[str, Any]:
        try:
            key = tuple((str(g.name), str(g.description)) for g in self.groups)
        except Exception:  # something that is not a ToolGroup: let AgentScope say what
            return build(self)  # type: ignore[no-any-return]
        schema = schemas.get(key)
        if schema is None:
            schema = build(self)
            if len(schemas) >= MAX_TEMPLATES:
                schemas.clear()
            schemas[key] = schema
        return copy.deepcopy(schema)

    reset_tools.input_schema = property(input_schema, doc=stock.__doc__)  # type: ignore[attr-defined]
