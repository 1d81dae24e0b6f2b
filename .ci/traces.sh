#!/usr/bin/env bash
# The traces lane: real trace producers against toolscope's trace reading (tests marked `traces`).
# A real AgentScope agent under OpenLLMetry, OpenInference and opentelemetry-instrumentation-openai-v2
# (toolscope[traces-lane], in a fresh venv beside agentscope 2.x), and a real Phoenix (arize-phoenix)
# in a venv of its own, started by the tests on 127.0.0.1 with its own SQLite storage.
#
#   .ci/traces.sh [VENV_PATH] [PHOENIX_VENV_PATH]     (defaults .venv-traces, .venv-phoenix)
# Env: PYTHON (default python3.11), KEEP_VENV=1 reuses existing venvs.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
venv=${1:-.venv-traces}
phoenix=${2:-.venv-phoenix}
python=${PYTHON:-python3.11}
if [[ "${KEEP_VENV:-0}" != 1 || ! -x "$venv/bin/python" ]]; then
    rm -rf "$venv" && "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install -q -e "$repo[test,traces-lane]"
    "$venv/bin/python" -m pip check
fi
if [[ "${KEEP_VENV:-0}" != 1 || ! -x "$phoenix/bin/phoenix" ]]; then
    rm -rf "$phoenix" && "$python" -m venv "$phoenix"
    "$phoenix/bin/python" -m pip install -q "arize-phoenix==20.26.1"
fi
"$venv/bin/python" -c 'import agentscope; print("agentscope", agentscope.__version__)'
venv=$(cd "$venv" && pwd)
phoenix=$(cd "$phoenix" && pwd)
(cd "$repo" && PHOENIX_BIN="$phoenix/bin/phoenix" "$venv/bin/pytest" -m traces -n 0 -q tests/traces)
