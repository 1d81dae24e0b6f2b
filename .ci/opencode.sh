#!/usr/bin/env bash
# Slow lane: the real OpenCode (npm opencode-ai, pinned) under `toolscope capture`, offline.
# Installs it into a folder of its own (default .ci-clis/, gitignored) and runs the tests marked
# `opencode` (tests/opencode): toolscope's prediction of the tools each request carries must equal
# what the binary sent. Every run is in a loopback-only network namespace (unshare -n -r) with
# OPENCODE_DISABLE_MODELS_FETCH/_AUTOUPDATE/_DEFAULT_PLUGINS/_LSP_DOWNLOAD/_SHARE set, so nothing
# reaches the internet (docs/systems/opencode.md). Usage: .ci/opencode.sh [FOLDER] (inside the venv).
set -euo pipefail
cd "$(dirname "$0")/.."
OPENCODE_VERSION=1.18.33
dir="${1:-.ci-clis}"
mkdir -p "$dir"
[ -f "$dir/package.json" ] || echo '{"name": "toolscope-clis-lane", "private": true}' > "$dir/package.json"
# The binary is the platform optional dependency (opencode-linux-x64); its postinstall is not needed.
(cd "$dir" && npm install --no-audit --no-fund --no-save "opencode-ai@$OPENCODE_VERSION")
"$dir/node_modules/.bin/opencode" --version
OPENCODE_NPM_DIR="$(cd "$dir" && pwd)" pytest -m opencode -n 2 -q tests/opencode
