"""Real trace producers, run now (the traces lane, ``.ci/traces.sh``; needs ``toolscope[traces-lane]``).

A real AgentScope agent (its own ``OpenAIChatModel`` over the official openai SDK), scripted
through ``toolscope capture``, traced by OpenLLMetry, OpenInference, the official openai-v2
instrumentation or AgentScope's own ``TracingMiddleware``: the trace and the capture of the
same run give the same comparison (openai-v2: "no tool list recorded"). Then a real Phoenix
(``arize-phoenix`` from PyPI, its own venv: ``PHOENIX_BIN``), started here on 127.0.0.1 with
its SQLite storage in a temporary folder, receives the spans over OTLP/HTTP and toolscope
reads them back from it; a Phoenix that is down is bad input within the timeout.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

# Each test runs a real agent, toolscope capture and toolscope check (Phoenix: a server start too): minutes
# on a loaded 2-core machine.
pytestmark = [pytest.mark.traces, pytest.mark.agentscope, pytest.mark.timeout(900)]

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
RECORD = HERE / "fixtures" / "record_traces.py"
TOOLKIT = REPO / "sample_configs" / "agentscope" / "toolkit.yaml"
# Phoenix's gRPC collector binds every interface ([::], not configurable): this makes it bind 127.0.0.1.
LOOPBACK_GRPC = """
import grpc.aio._server as _server
_add = _server.Server.add_insecure_port
_server.Server.add_insecure_port = lambda self, address: _add(self, address.replace("[::]", "127.0.0.1"))
"""


def _producers_installed() -> None:
    for module in (
        "opentelemetry.sdk",
        "opentelemetry.instrumentation.openai",
        "openinference.instrumentation.openai",
        "opentelemetry.instrumentation.openai_v2",
    ):
        pytest.importorskip(module, reason="the traces lane installs toolscope[traces-lane]")


def _record(instrument: str, prefix: Path, endpoint: str | None = None) -> None:
    command = [sys.executable, str(RECORD), instrument, str(prefix)]
    if endpoint is not None:
        command += ["--otlp-endpoint", endpoint]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=REPO)
    assert done.returncode == 0, done.stderr[-3000:]


def _check(capture: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "toolscope", "check", str(TOOLKIT), "--capture", capture, "--json"]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=REPO)


def _facts(done: subprocess.CompletedProcess[str]) -> list[dict]:
    assert done.returncode in (0, 1), done.stderr
    block = json.loads(done.stdout)["capture"]
    keys = ("received", "predicted", "basis", "agrees", "missing", "unexpected", "model")
    return [{k: r[k] for k in keys} for r in block["requests"]]


@pytest.mark.parametrize("instrument", ["openllmetry", "openinference", "agentscope", "agentscope+openllmetry"])
def test_a_traced_run_and_its_capture_give_the_same_comparison(tmp_path: Path, instrument: str) -> None:
    _producers_installed()
    prefix = tmp_path / "run"
    _record(instrument, prefix)
    from_capture = _facts(_check(f"{prefix}.capture.jsonl"))
    from_trace = _facts(_check(f"{prefix}.otlp.json"))
    assert len(from_trace) == 4 and from_trace == from_capture


def test_openai_v2_records_no_tool_list_and_toolscope_says_so(tmp_path: Path) -> None:
    _producers_installed()
    _record("openai-v2", tmp_path / "run")
    done = _check(f"{tmp_path / 'run'}.otlp.json")
    assert done.returncode == 2
    assert "4 model-call spans with no tool list recorded" in done.stderr


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def phoenix(tmp_path: Path) -> Iterator[str]:
    """A real Phoenix on 127.0.0.1 (its SQLite in tmp_path); its base URL."""
    binary = os.environ.get("PHOENIX_BIN")
    if not binary:
        pytest.skip("PHOENIX_BIN: the phoenix command of arize-phoenix's own venv (.ci/traces.sh)")
    port, grpc_port = _free_port(), _free_port()
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(LOOPBACK_GRPC)
    env = {
        **os.environ,
        "PYTHONPATH": str(tmp_path / "site"),
        "PHOENIX_WORKING_DIR": str(tmp_path / "phoenix"),
        "PHOENIX_HOST": "127.0.0.1",
        "PHOENIX_PORT": str(port),
        "PHOENIX_GRPC_PORT": str(grpc_port),
        "PHOENIX_TELEMETRY_ENABLED": "false",
        "PHOENIX_ALLOW_EXTERNAL_RESOURCES": "false",
        "PHOENIX_ALLOWED_SANDBOX_PROVIDERS": "NONE",
    }
    log = (tmp_path / "phoenix.log").open("wb")
    server = subprocess.Popen([binary, "serve"], env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 480  # about 2 minutes on a loaded 2-core machine
        while time.monotonic() < deadline and server.poll() is None:
            try:
                if httpx.get(f"{base}/v1/projects", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(1)
        else:
            pytest.fail(f"Phoenix did not start: {(tmp_path / 'phoenix.log').read_text()[-2000:]}")
        yield base
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)
        log.close()


def test_toolscope_reads_a_run_back_from_phoenix(tmp_path: Path, phoenix: str) -> None:
    _producers_installed()
    _record("openinference", tmp_path / "run", endpoint=f"{phoenix}/v1/traces")
    address = phoenix.replace("http://", "phoenix+http://") + "/projects/default"
    deadline = time.monotonic() + 60  # Phoenix inserts spans in batches
    while time.monotonic() < deadline:
        done = _check(address)
        if done.returncode != 2:
            break
        time.sleep(2)
    from_phoenix = _facts(done)
    assert len(from_phoenix) == 4 and from_phoenix == _facts(_check(f"{tmp_path / 'run'}.capture.jsonl"))
    block = json.loads(done.stdout)["capture"]
    assert block["source"]["path"] == "phoenix project default"
    assert all(len(r["trace"]["trace_id"]) == 32 for r in block["requests"])
    missing = _check(address.replace("/projects/default", "/projects/nope"))
    assert missing.returncode == 2 and "no such project" in missing.stderr


def test_a_phoenix_that_is_down_is_bad_input_within_the_timeout() -> None:
    port = _free_port()
    started = time.monotonic()
    done = _check(f"phoenix+http://127.0.0.1:{port}/projects/default?timeout=2")
    assert done.returncode == 2 and "cannot read spans from Phoenix (is it running?)" in done.stderr
    assert time.monotonic() - started < 120  # the CLI's own start-up included; never a hang


def test_a_phoenix_that_never_answers_is_bad_input_within_the_timeout() -> None:
    with socket.socket() as silent:  # accepts the connection (backlog), never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        done = _check(f"phoenix+http://127.0.0.1:{silent.getsockname()[1]}/projects/default?timeout=3")
    assert done.returncode == 2 and "cannot read spans from Phoenix" in done.stderr and "Timeout" in done.stderr
