#!/usr/bin/env bash
# Run the AgentScope-facing tests (pytest -m agentscope) against one AgentScope release,
# in a virtual environment of its own.
#
#   .ci/agentscope-compat.sh VENV_PATH [AGENTSCOPE_SPEC]
#
#   VENV_PATH        where to create the venv (recreated from scratch), e.g. .venv-as206
#   AGENTSCOPE_SPEC  pip requirement, default "agentscope==2.0.6"
#
# 2.0.6 pins mcp<2 (2.0.7+ need mcp>=2); toolscope's own "mcp>=1.20" allows both, so
# the spec decides which mcp gets installed. Examples:
#   .ci/agentscope-compat.sh .venv-as206                              # oldest supported
#   .ci/agentscope-compat.sh .venv-asnew "agentscope>=2.0.7,<2.1"     # newest 2.0.x
# Env: PYTHON (default python3.11), KEEP_VENV=1 reuses an existing venv.
set -euo pipefail

source "$(dirname "$0")/lane_venv.sh"
lane_args "agentscope==2.0.6" "$@"

extra=()
if [[ "$spec" == *"==2.0.6"* ]]; then
    extra=("mcp<2")
fi

if ! lane_reuse_venv; then
    lane_new_venv
    if [[ ${#extra[@]} -gt 0 ]]; then
        # toolscope pins mcp exactly (core/mcp/sdk_private.py); this lane needs the older mcp
        # AgentScope 2.0.6 requires: toolscope without its deps, then its deps but mcp.
        mapfile -t deps < <("$python" -c 'import tomllib,sys; print("\n".join(d for d in tomllib.load(open(sys.argv[1],"rb"))["project"]["dependencies"] if not d.startswith(("mcp","agentscope"))))' "$repo/pyproject.toml")
        "$venv/bin/python" -m pip install -q --no-deps -e "$repo"
        "$venv/bin/python" -m pip install -q "${deps[@]}" "$spec" "${extra[@]}" \
            pytest pytest-asyncio pytest-timeout pytest-xdist pyyaml
    else
        "$venv/bin/python" -m pip install -q -e "$repo" "$spec" \
            pytest pytest-asyncio pytest-timeout pytest-xdist pyyaml
    fi
fi

lane_version
cd "$repo"
# tests/mcp/test_mcp_server.py (marked mcp_sdk): toolscope mcp serves under mcp<2 too.
# tests/mcp/test_mcp_eras.py (marked mcp_sdk): under mcp<2, discovery must say why a server that
# speaks only the 2026-07-28 protocol cannot be listed (a recorded refusal is replayed).
exec "$venv/bin/python" -m pytest -m "agentscope or mcp_sdk" tests/agentscope tests/mcp/test_mcp_eras.py tests/mcp/test_mcp_server.py -q -p no:cacheprovider
