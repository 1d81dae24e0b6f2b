#!/usr/bin/env bash
# Run the AgentScope 1.x tests (pytest -m agentscope1, plus the pure planner and 1.x session
# tests) against one AgentScope 1.x release, in a virtual environment of its own.
#
#   .ci/agentscope-v1.sh VENV_PATH [AGENTSCOPE_SPEC]
#
#   VENV_PATH        where to create the venv (recreated from scratch), e.g. .venv-as1021
#   AGENTSCOPE_SPEC  pip requirement, default "agentscope==1.0.21"
#
# agentscope 1.0.x does not pin mcp, yet imports APIs mcp 2.x removed
# (streamablehttp_client): "mcp<2" is required, and greenlet (SQLAlchemy's async engine)
# and tqdm (an evaluate module) are imported by `import agentscope` without being declared.
# Examples:
#   .ci/agentscope-v1.sh .venv-as1021                         # the last 1.x release
#   .ci/agentscope-v1.sh .venv-as1011 "agentscope==1.0.11"    # before 1.0.16 (no middleware) and 1.0.12 (flat memory)
# Env: PYTHON (default python3.11), KEEP_VENV=1 reuses an existing venv.
set -euo pipefail

source "$(dirname "$0")/lane_venv.sh"
lane_args "agentscope==1.0.21" "$@"

if ! lane_reuse_venv; then
    lane_new_venv
    # The AgentScope release first, then toolscope: pip keeps the installed 1.x (toolscope's
    # range admits it), which is what a 1.x user's environment looks like.
    "$venv/bin/python" -m pip install -q "$spec" "mcp<2" greenlet tqdm
    "$venv/bin/python" -m pip install -q -e "$repo" pytest pytest-asyncio pytest-timeout pytest-xdist pyyaml jsonschema
fi

lane_version
"$venv/bin/python" - "$spec" <<'PY'
import sys
from importlib.metadata import version
want = sys.argv[1].split("==")[-1]
assert version("agentscope") == want, f"pip replaced agentscope {want} with {version('agentscope')}"
PY
cd "$repo"
exec "$venv/bin/python" -m pytest tests/agentscope/test_as1x_toolkit.py tests/agentscope/test_as1x_step.py \
    tests/agentscope/test_as1x_sessions.py tests/agentscope/test_as1x_version.py tests/agentscope/test_as_planner.py \
    tests/mcp/test_mcp_eras.py \
    -m "" -q -p no:cacheprovider  # -m "": every test named here, the lane's (test_mcp_eras) included
