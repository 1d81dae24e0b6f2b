"""Hostile corpus: bad input is exit 2 naming the file and the place, never exit 70, never a hang."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from hostile_helpers import bad
from hostile_helpers import run_bounded as run

REPO = Path(__file__).resolve().parents[2]
TOOLKIT = REPO / "sample_configs" / "agentscope" / "toolkit.yaml"
MCP = REPO / "sample_configs" / "mcp"

BILLION_LAUGHS = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{name}: &{name} [{', '.join(['*' + prev] * 9)}]\n" for prev, name in zip("abcdefgh", "bcdefghi", strict=True)
)


MALFORMED = [
    ("huge.json", '{"steps": [], "n": ' + "9" * 5000 + "}", ["huge.json", "digits"]),
    ("huge.yaml", "groups: []\nn: " + "9" * 5000 + "\n", ["huge.yaml", "line 2", "digits"]),
    ("complex.yaml", "? [a, b]\n: 1\ngroups: []\n", ["complex.yaml", "line 1", "plain value"]),
    ("mapkey.yaml", "groups: []\n? {a: 1}\n: 2\n", ["mapkey.yaml", "line 2"]),
    ("binary.yaml", "groups: []\n!!binary aGVsbG8=: 1\n", ["binary.yaml", "!!binary"]),
    ("bomb.yaml", BILLION_LAUGHS, ["bomb.yaml", "aliases expand"]),
    ("nan.json", '{"steps": [], "x": NaN}', ["nan.json", "NaN"]),
    ("deep.json", '{"steps": ' + "[" * 100_000 + "]" * 100_000 + "}", ["deep.json", "nested too deeply"]),
    ("deep.yaml", "groups: " + "[" * 20_000 + "]" * 20_000 + "\n", ["deep.yaml", "nested too deeply"]),
]


@pytest.mark.parametrize(("name", "text", "needles"), MALFORMED, ids=[case[0] for case in MALFORMED])
def test_malformed_configs(tmp_path: Path, name: str, text: str, needles: list[str]) -> None:
    path = tmp_path / name
    path.write_text(text)
    bad(run("tools", str(path)), *needles)


@pytest.mark.parametrize(
    ("text", "needles"),
    [
        ("- {!!binary d2ViX3NlYXJjaA==: true}\n", ["script.yaml", "!!binary"]),
        (BILLION_LAUGHS + "steps: [*i]\n", ["script.yaml", "aliases expand"]),
        ("- {web_search: " + "1" * 5000 + "}\n", ["script.yaml", "digits"]),
    ],
    ids=["binary-key", "alias-bomb", "long-integer"],
)
def test_malformed_scripts(tmp_path: Path, text: str, needles: list[str]) -> None:
    script = tmp_path / "script.yaml"
    script.write_text(text)
    bad(run("step", str(TOOLKIT), "-s", str(script)), *needles)


def test_alias_bomb_in_a_spec_schema_is_refused_quickly(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        BILLION_LAUGHS.replace("\n", "\n", 1)
        + "kind: toolkit\ntools:\n  - name: t\n    parameters: {x: {type: string, enum: *i}}\ngroups: []\n"
    )
    bad(run("inspect", str(spec), "--screenshot", str(tmp_path / "x.svg")), "spec.yaml", "aliases expand")


def test_mcp_config_nested_100k_deep(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text('{"mcpServers": ' + "[" * 100_000 + "]" * 100_000 + "}")
    bad(run("discover", str(config)), "mcp.json", "nested too deeply")


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_devices_as_input_are_refused(device: str) -> None:
    bad(run("tools", device), device, "character device")
    bad(run("discover", device), device, "character device")


def test_a_fifo_as_input_is_refused_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "config.json"
    os.mkfifo(fifo)
    bad(run("tools", str(fifo)), "named pipe")
    bad(run("step", str(TOOLKIT), "-s", str(fifo)), "named pipe")


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_a_registry_naming_a_special_mcp_config_is_refused(tmp_path: Path, special: str) -> None:
    folder = tmp_path / "mcp"
    shutil.copytree(MCP, folder)
    (folder / "mcp.json").unlink()
    if special == "fifo":
        os.mkfifo(folder / "mcp.json")
    else:
        (folder / "mcp.json").symlink_to(special)
    bad(run("tools", str(folder / "step_config.json")), "mcp.json")


def test_an_oversized_input_states_the_limit(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with open(big, "wb") as handle:
        handle.truncate(200 * 1024 * 1024)  # sparse: costs no disk, and is never read
    bad(run("tools", str(big)), "big.json", "128 MiB")


# --- snapshots are validated, not coerced ------------------------------------------------------


def _snapshot(tmp_path: Path, change) -> Path:
    data = json.loads((MCP / "snapshot.json").read_text())
    change(data)
    path = tmp_path / "snap.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("change", "needles"),
    [
        (lambda d: d.update(elapsed="fast"), ["elapsed", "number"]),
        (lambda d: d["servers"][0].update(ok="false"), ["servers[0].ok", "true or false"]),
        (lambda d: d["servers"][0]["tools"][0].update(name=None), ["servers[0].tools[0].name", "string"]),
        (lambda d: d["servers"][0].update(elapsed=-1), ["servers[0].elapsed"]),
        (lambda d: d.update(servers={"a": 1}), ["servers", "list"]),
        (lambda d: d["servers"][0].update(tools="abc"), ["servers[0].tools"]),
    ],
)
def test_bad_snapshots(tmp_path: Path, change, needles: list[str]) -> None:
    snap = _snapshot(tmp_path, change)
    bad(run("tools", str(MCP / "step_config.json"), "--snapshot", str(snap)), "snap.json", *needles)
    bad(run("check", str(MCP / "step_config.json"), "--drift-from", str(snap)), "snap.json", *needles)
