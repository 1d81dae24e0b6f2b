"""Parsing YAML others wrote: safe, strict and bounded.

Only plain data is built (a ``SafeLoader`` subclass), and a repeated key, a key that is not a
plain value, ``!!binary``, an over-long integer or an alias bomb (more than ``MAX_YAML_NODES``
values once expanded) is an ``InputError`` with the line and column.
"""

from __future__ import annotations

from typing import Any

from ..model.errors import InputError, Problem
from .strict_json import digit_limit_message

MAX_YAML_NODES = 1_000_000
"""How many nodes a YAML document may have once its aliases are expanded (billion laughs)."""


def parse_yaml(text: str, source: str) -> Any:
    """Parse YAML text safely; a syntax error becomes an InputError with line:column.

    libyaml parses when it is installed (several times faster); on any error the file is
    parsed again by PyYAML's own parser, whose messages and positions the errors quote.
    """
    import yaml  # deferred: only YAML inputs pay for it

    fast = _strict_loader(fast=True)
    if fast is not None:
        try:
            return yaml.load(text, Loader=fast)  # a SafeLoader subclass
        except (yaml.YAMLError, RecursionError):
            pass  # reported below, in PyYAML's words
    try:
        return yaml.load(text, Loader=_strict_loader())  # a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        what = exc.problem or exc.context or "syntax error"
        raise InputError(source, "invalid YAML", [Problem(where, what)]) from None
    except yaml.YAMLError as exc:
        raise InputError(source, "invalid YAML", [Problem("", str(exc))]) from None
    except RecursionError:
        raise InputError(source, "is nested too deeply to read (thousands of levels)") from None


def _expanded_size(root: Any, limit: int) -> int:
    """Nodes in the document with every alias expanded, counted without expanding them
    (each distinct node once, memoized); stops counting past ``limit``."""
    import yaml

    sizes: dict[int, int] = {}
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in sizes:
            continue
        if isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        elif isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        else:
            sizes[id(node)] = 1
            continue
        if not children_done:
            stack.append((node, True))
            stack.extend((child, False) for child in children if id(child) not in sizes)
            continue
        sizes[id(node)] = min(limit + 1, 1 + sum(sizes.get(id(child), 1) for child in children))
    return sizes[id(root)]


_STRICT_LOADERS: dict[bool, Any] = {}
_KEY_TYPES = (str, int, float, bool, type(None))


def _strict_loader(fast: bool = False):  # type: ignore[no-untyped-def]
    """yaml.SafeLoader (``fast``: libyaml's CSafeLoader, None without libyaml) made strict
    and bounded for files others wrote.

    Rejected with the line and column: a key repeated in one mapping, a key that is not a
    plain scalar (``? [a, b]``), ``!!binary``, an integer over Python's digit limit, and a
    document whose aliases expand to more than ``MAX_YAML_NODES`` nodes.
    """
    if fast not in _STRICT_LOADERS:
        import yaml
        from yaml.constructor import ConstructorError

        base = getattr(yaml, "CSafeLoader", None) if fast else yaml.SafeLoader
        if base is None:
            _STRICT_LOADERS[fast] = None
            return None

        class StrictSafeLoader(base):  # type: ignore[misc, valid-type]
            def construct_document(self, node):  # type: ignore[no-untyped-def]
                if _expanded_size(node, MAX_YAML_NODES) > MAX_YAML_NODES:
                    raise ConstructorError(
                        None,
                        None,
                        f"its aliases expand to more than {MAX_YAML_NODES:,} values (a YAML alias bomb?)",
                        node.start_mark,
                    )
                return super().construct_document(node)

            def construct_mapping(self, node, deep=False):  # type: ignore[no-untyped-def]
                seen = set()
                for key_node, _ in node.value:
                    key = self.construct_object(key_node, deep=deep)
                    if not isinstance(key, _KEY_TYPES):
                        raise ConstructorError(
                            None,
                            None,
                            f"a mapping key must be a plain value (text or a number), not a {type(key).__name__}",
                            key_node.start_mark,
                        )
                    if key in seen:
                        raise ConstructorError(
                            None, None, f"key {key!r} appears twice in one mapping", key_node.start_mark
                        )
                    seen.add(key)
                return super().construct_mapping(node, deep=deep)

            def construct_yaml_int(self, node):  # type: ignore[no-untyped-def]
                try:
                    return super().construct_yaml_int(node)
                except ValueError as exc:
                    raise ConstructorError(None, None, digit_limit_message(exc), node.start_mark) from None

            def construct_binary(self, node):  # type: ignore[no-untyped-def]
                raise ConstructorError(
                    None, None, "!!binary values are not accepted in toolscope inputs", node.start_mark
                )

        StrictSafeLoader.add_constructor("tag:yaml.org,2002:int", StrictSafeLoader.construct_yaml_int)
        StrictSafeLoader.add_constructor("tag:yaml.org,2002:binary", StrictSafeLoader.construct_binary)
        _STRICT_LOADERS[fast] = StrictSafeLoader
    return _STRICT_LOADERS[fast]
