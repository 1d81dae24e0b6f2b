#!/usr/bin/env bash
# Slow lane: the real Gemini CLI from the npm registry, pinned, under `toolscope capture`.
# Installs @google/gemini-cli into a folder of its own (default .ci-clis/) and runs the tests
# marked `gemini` (tests/gemini_cli): toolscope's prediction of the MCP declarations sent must
# equal what the binary sent, case by case. Offline: each case's user settings set
# security.auth.selectedType "gemini-api-key", privacy.usageStatisticsEnabled false (no telemetry,
# no DNS lookup) and general.enableAutoUpdate(Notification) false (no update check); the API key
# is a dummy and GOOGLE_GEMINI_BASE_URL points at the capture on 127.0.0.1.
# Usage: .ci/gemini.sh [FOLDER]  (inside the venv .ci/run made).
set -euo pipefail
cd "$(dirname "$0")/.."
GEMINI_CLI_VERSION=0.61.0
dir="${1:-.ci-clis}"
mkdir -p "$dir"
[ -f "$dir/package.json" ] || echo '{"name": "toolscope-clis-lane", "private": true}' > "$dir/package.json"
(cd "$dir" && npm install --no-audit --no-fund --no-save "@google/gemini-cli@$GEMINI_CLI_VERSION")
"$dir/node_modules/.bin/gemini" --version
GEMINI_NPM_DIR="$(cd "$dir" && pwd)" pytest -m gemini -n 2 -q tests/gemini_cli
