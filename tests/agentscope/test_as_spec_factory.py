"""Toolkit specs become real Toolkits; user factories load in-process; bad input is explained."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from toolscope.core.model.errors import EXIT_BAD_INPUT, EXIT_USER_CODE, InputError, UserCodeError

pytestmark = pytest.mark.agentscope


def test_spec_builds_a_real_toolkit(seed_built) -> None:
    from agentscope.tool import ToolBase, Toolkit

    toolkit = seed_built.toolkit
    assert isinstance(toolkit, Toolkit)
    assert [g.name for g in toolkit.tool_groups] == ["basic", "web_search", "scraping"]
    web = toolkit.tool_groups[1]
    assert web.instructions == "Cite the URL of every page you use."
    assert all(isinstance(t, ToolBase) for t in web.tools)
    assert web.tools[0].input_schema["required"] == ["query"]  # max_results has a default
    assert seed_built.state.tool_context.activated_groups == []
    assert "page_fetch" in seed_built.state.permission_context.allow_rules
    assert seed_built.origins[("web_search", "page_fetch")] == "toolkit.yaml: groups[0].tools[1]"


async def test_spec_tool_runs_and_declares_permission(seed_built) -> None:
    from agentscope.permission import PermissionContext

    tool = seed_built.toolkit.tool_groups[1].tools[0]
    chunk = await tool(query="x")
    assert chunk.content[0].text.startswith("3 results")
    decision = await tool.check_permissions({}, PermissionContext())
    assert decision.behavior.value == "allow"
    ask = await seed_built.toolkit.tool_groups[1].tools[1].check_permissions({}, PermissionContext())
    assert ask.behavior.value == "ask"  # no permission declared: like FunctionTool


def test_json_and_yaml_specs_agree(samples) -> None:
    import yaml

    assert json.loads((samples / "toolkit.json").read_text()) == yaml.safe_load((samples / "toolkit.yaml").read_text())


def test_large_toolkit(samples) -> None:
    from toolscope.core.systems.agentscope.spec import load_toolkit_spec

    built = load_toolkit_spec(samples / "large_toolkit.yaml")
    groups = [g for g in built.toolkit.tool_groups if g.name != "basic"]
    assert len(groups) >= 10
    assert sum(len(g.tools) for g in built.toolkit.tool_groups) >= 80


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def spec_error(tmp_path: Path, text: str) -> InputError:
    """The InputError load_toolkit_spec raises for a spec with this text."""
    from toolscope.core.systems.agentscope.spec import load_toolkit_spec

    with pytest.raises(InputError) as info:
        load_toolkit_spec(_write(tmp_path, "t.yaml", text))
    return info.value


def test_group_named_basic_quotes_agentscope(tmp_path) -> None:
    error = spec_error(
        tmp_path,
        """
        groups:
          - {name: web, description: Web}
          - {name: basic, description: Mine}
    """,
    )
    text = error.render()
    assert error.exit_code == EXIT_BAD_INPUT
    assert "groups[1].name" in text and "top-level 'tools:'" in text
    assert "AgentScope says: The 'basic' tool group is reserved" in text


def test_duplicate_groups_quote_agentscope(tmp_path) -> None:
    text = spec_error(
        tmp_path,
        """
        groups:
          - {name: web, description: Web}
          - {name: files, description: Files}
          - {name: web, description: Web again}
    """,
    ).render()
    assert "groups[2].name: 'web' is also groups[0]" in text
    assert "AgentScope says: Tool groups must not contain duplicate tool groups." in text


def test_spec_schema_errors(tmp_path) -> None:
    text = spec_error(
        tmp_path,
        """
        groups:
          - name: web
            description: Web
            tools:
              - {name: s, permision: allow}
    """,
    ).render()
    assert "groups[0].tools[0].permision: unknown field" in text

    text = spec_error(tmp_path, "groups:\n  - {name: web}\n").render()
    assert "groups[0]" in text and "AgentScope says" in text

    text = spec_error(tmp_path, "groups:\n  - {name: web, description: W}\ninitially_active: [wbe]\n").render()
    assert "initially_active[0]: no group named 'wbe' (did you mean web?)" in text


# -- factories --------------------------------------------------------------------


def factory_error(target: str, kind: type[Exception]) -> Any:
    """The error of ``kind`` that load_factory raises for ``target``."""
    from toolscope.core.systems.agentscope.factory import load_factory

    with pytest.raises(kind) as info:
        load_factory(target)
    return info.value


FACTORY = """
from agentscope.state import AgentState
from agentscope.tool import Toolkit, ToolGroup


def build():
    return Toolkit(tool_groups=[ToolGroup("web", "Web")])


async def build_async():
    state = AgentState()
    state.tool_context.activated_groups.append("web")
    return Toolkit(tool_groups=[ToolGroup("web", "Web")]), state


def broken():
    settings = {}
    return settings["api_key"]


def wrong():
    return ["not", "a", "toolkit"]


value = 3
"""


def test_file_factory_sync_and_async(tmp_path) -> None:
    from toolscope.core.systems.agentscope.factory import load_factory

    path = _write(tmp_path, "agent_mod.py", FACTORY)
    built = load_factory(f"{path}:build")
    assert [g.name for g in built.toolkit.tool_groups] == ["basic", "web"]
    built = load_factory(f"{path}:build_async")
    assert built.state.tool_context.activated_groups == ["web"]


async def test_async_factory_inside_a_running_loop(tmp_path) -> None:
    from toolscope.core.systems.agentscope.factory import load_factory

    path = _write(tmp_path, "agent_loop.py", FACTORY)
    assert load_factory(f"{path}:build_async").state.tool_context.activated_groups == ["web"]


def test_dotted_factory_from_the_project_dir(tmp_path, monkeypatch) -> None:
    from toolscope.core.systems.agentscope.factory import load_factory

    pkg = tmp_path / "myproj_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    _write(pkg, "agent.py", FACTORY)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.path", list(__import__("sys").path))
    built = load_factory("myproj_pkg.agent:build")
    assert built.source == "myproj_pkg.agent:build"


def test_factory_module_not_found(tmp_path, monkeypatch) -> None:
    from toolscope.core.systems.agentscope.factory import load_factory

    monkeypatch.chdir(tmp_path)
    error = factory_error("no_such_pkg_xyz.agent:build", InputError)
    assert "module not found" in error.render() and "no_such_pkg_xyz" in error.render()
    with pytest.raises(InputError, match="no such file"):
        load_factory(f"{tmp_path}/missing.py:build")


def test_missing_import_inside_their_module_is_their_error(tmp_path) -> None:
    path = _write(tmp_path, "needs_dep.py", "import definitely_not_installed_dep\n\ndef build():\n    pass\n")
    error = factory_error(f"{path}:build", UserCodeError)
    assert "ModuleNotFoundError" in error.render() and f"{path}:1" in error.render()


def test_factory_attribute_missing_and_not_callable(tmp_path) -> None:
    from toolscope.core.systems.agentscope.factory import load_factory

    path = _write(tmp_path, "agent_attr.py", FACTORY)
    error = factory_error(f"{path}:buidl", InputError)
    assert "attribute not found" in error.render() and "did you mean build" in error.render()
    with pytest.raises(InputError, match="not callable"):
        load_factory(f"{path}:value")


def test_factory_raises_is_user_code_error(tmp_path) -> None:
    path = _write(tmp_path, "agent_raise.py", FACTORY)
    error = factory_error(f"{path}:broken", UserCodeError)
    assert error.exit_code == EXIT_USER_CODE
    rendered = error.render()
    line = FACTORY.splitlines().index('    return settings["api_key"]') + 1  # their file's line
    assert "your code raised KeyError: 'api_key'" in rendered
    assert f"(at {path}:{line}, in broken)" in rendered
    assert "in broken" in rendered


def test_factory_wrong_return_type(tmp_path) -> None:
    path = _write(tmp_path, "agent_wrong.py", FACTORY)
    error = factory_error(f"{path}:wrong", InputError)
    assert "returned list, expected a Toolkit, or a (Toolkit, AgentState) tuple" in error.render()


def test_sample_factory(samples) -> None:
    from toolscope.core.systems.agentscope.factory import load_factory

    built = load_factory(f"{samples / 'my_agent.py'}:build_toolkit")
    assert [g.name for g in built.toolkit.tool_groups] == ["basic", "web_search", "scraping"]
    assert "page_fetch" in built.state.permission_context.allow_rules


# -- QA regressions: exits, prints, names, signatures, reserved names ---------------

QA_FACTORY = """
import sys
from agentscope.tool import Toolkit, ToolGroup


def exits():
    sys.exit(0)


def raises_exit():
    raise SystemExit("bye")


def chatty():
    print("hello from the factory")
    return Toolkit(tool_groups=[ToolGroup("web", "Web")])


def needs_arg(x):
    return Toolkit()


def has_default(x=1):
    return Toolkit()
"""


def test_factory_sys_exit_is_user_code_error(tmp_path) -> None:
    from toolscope.core.systems.agentscope.factory import load_factory

    path = _write(tmp_path, "agent_exit.py", QA_FACTORY)
    error = factory_error(f"{path}:exits", UserCodeError)
    rendered = error.render()
    assert error.exit_code == EXIT_USER_CODE
    line = QA_FACTORY.splitlines().index("    sys.exit(0)") + 1
    assert "your code called sys.exit(0)" in rendered
    assert f"(at {path}:{line}, in exits)" in rendered
    with pytest.raises(UserCodeError, match=r"sys.exit\('bye'\)"):
        load_factory(f"{path}:raises_exit")


def test_module_level_sys_exit_and_base_exceptions(tmp_path) -> None:
    from toolscope.core.systems.agentscope.factory import load_factory

    path = _write(tmp_path, "agent_exit_on_import.py", "import sys\nsys.exit(2)\n")
    error = factory_error(f"{path}:build", UserCodeError)
    assert "your code called sys.exit(2)" in error.render() and f"{path}:2" in error.render()

    # Any BaseException from their code is theirs, except Ctrl-C.
    path = _write(
        tmp_path,
        "agent_base.py",
        "class Odd(BaseException):\n    pass\n\ndef build():\n    raise Odd('strange')\n\ndef stop():\n    raise KeyboardInterrupt\n",
    )
    with pytest.raises(UserCodeError, match="your code raised Odd: strange"):
        load_factory(f"{path}:build")
    with pytest.raises(KeyboardInterrupt):
        load_factory(f"{path}:stop")


def test_factory_print_goes_to_stderr(tmp_path, capsys) -> None:
    from toolscope.core.systems.agentscope.factory import load_factory

    path = _write(tmp_path, "agent_chatty.py", 'print("import-time chatter")\n' + QA_FACTORY)
    built = load_factory(f"{path}:chatty")
    assert [g.name for g in built.toolkit.tool_groups] == ["basic", "web"]
    out, err = capsys.readouterr()
    assert out == ""
    assert "import-time chatter" in err and "hello from the factory" in err


def test_factory_attribute_missing_names_the_file(tmp_path, monkeypatch) -> None:
    _write(tmp_path, "fac.py", QA_FACTORY)
    monkeypatch.chdir(tmp_path)
    error = factory_error("fac.py:nope", InputError)
    rendered = error.render()
    assert "'nope' is not defined in fac.py" in rendered
    assert "toolscope_user_" not in rendered


def test_factory_needing_arguments_is_bad_input(tmp_path) -> None:
    from toolscope.core.systems.agentscope.factory import load_factory

    path = _write(tmp_path, "agent_args.py", QA_FACTORY)
    error = factory_error(f"{path}:needs_arg", InputError)
    assert error.exit_code == EXIT_BAD_INPUT
    assert f"factory {path}:needs_arg must take no arguments" in error.render()
    assert "x" in error.render()
    load_factory(f"{path}:has_default")  # a default is fine: it can be called with none


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("tools:\n  - {name: reset_tools}\n", "tools[0].name"),
        (
            "groups:\n  - name: g\n    description: G\n    tools: [{name: a}, {name: reset_tools}]\n",
            "groups[0].tools[1].name",
        ),
    ],
)
def test_spec_rejects_reset_tools_as_a_tool_name(tmp_path, text, where) -> None:
    from toolscope.core.systems.agentscope.spec import load_toolkit_spec

    path = _write(tmp_path, "meta.yaml", text)
    with pytest.raises(InputError) as info:
        load_toolkit_spec(path)
    rendered = info.value.render()
    assert info.value.exit_code == EXIT_BAD_INPUT
    assert str(path) in rendered
    assert f"{where}: reset_tools is AgentScope's meta tool name" in rendered
