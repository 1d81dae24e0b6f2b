#!/usr/bin/env bash
# Slow lane: the real coding-agent CLIs from the npm registry, pinned, under `toolscope capture`.
# Installs Claude Code and Codex into a folder of their own (default .ci-clis/) and runs the tests
# marked `clis` (tests/clis): toolscope's prediction of the offered / callable tools must equal
# what the binaries sent. Usage: .ci/clis.sh [FOLDER]  (inside the venv .ci/run made).
set -euo pipefail
cd "$(dirname "$0")/.."
CLAUDE_CODE_VERSION=2.1.332
CODEX_VERSION=0.171.0
dir="${1:-.ci-clis}"
mkdir -p "$dir"
[ -f "$dir/package.json" ] || echo '{"name": "toolscope-clis-lane", "private": true}' > "$dir/package.json"
# npm 11 skips claude-code's postinstall (allowScripts): harmless, the native binary is the
# platform optional dependency. Both need no login: the tests point them at 127.0.0.1.
(cd "$dir" && npm install --no-audit --no-fund --no-save \
    "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION" "@openai/codex@$CODEX_VERSION")
"$dir/node_modules/.bin/claude" --version
"$dir/node_modules/.bin/codex" --version
CLIS_NPM_DIR="$(cd "$dir" && pwd)" pytest -m clis -n 2 -q tests/clis
