# Sourced by the AgentScope lane scripts (agentscope-compat.sh, agentscope-v1.sh): their
# arguments, VENV_PATH [AGENTSCOPE_SPEC], and the fresh virtual environment each lane installs into.
#
#   lane_args DEFAULT_SPEC "$@"   sets venv, spec (DEFAULT_SPEC when not given), python, repo
#   lane_reuse_venv               true when KEEP_VENV=1 and the venv exists (then it is kept)
#   lane_new_venv                 the venv created from scratch, with an up-to-date pip
#   lane_version                  prints the installed agentscope (and that mcp.types imports)

lane_args() {
    if [[ $# -lt 2 ]]; then
        echo "usage: $0 VENV_PATH [AGENTSCOPE_SPEC]" >&2
        exit 2
    fi
    venv=$2
    spec=${3:-"$1"}
    python=${PYTHON:-python3.11}
    repo=$(cd "$(dirname "$0")/.." && pwd)
}

lane_reuse_venv() {
    [[ "${KEEP_VENV:-0}" == 1 && -x "$venv/bin/python" ]]
}

# Called as a command, never as an if condition: set -e must stop the lane when a step fails.
lane_new_venv() {
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install -q --upgrade pip
}

lane_version() {
    "$venv/bin/python" -c 'import agentscope, mcp.types; print("agentscope", agentscope.__version__)'
}
