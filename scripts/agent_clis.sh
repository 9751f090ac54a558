#!/usr/bin/env bash
# Install the coding agents' CLIs from npm into $KINDLING_NPM_CACHE (default
# ~/.cache/kindling-npm), for tests/agents/test_agents_cli.py. Idempotent: the pinned versions, once
# installed, are kept; a pin that changed is installed again.
# Cursor's CLI is not published on npm, so it is not installed here (tests/agents/test_cursor_sdk.py
# installs Cursor's SDK itself).
set -euo pipefail
cache="${KINDLING_NPM_CACHE:-$HOME/.cache/kindling-npm}"
if ! command -v npm >/dev/null; then
  echo "agent_clis: npm not found; the agent CLI tests will skip" >&2
  exit 0
fi
mkdir -p "$cache"
packages=(@anthropic-ai/claude-code@2.1.197 @google/gemini-cli@0.61.0 @openai/codex@0.171.0 opencode-ai@1.18.33)
installed() {  # name@version: is that version in the cache?
  local name="${1%@*}" version="${1##*@}"
  grep -q "\"version\": \"$version\"" "$cache/node_modules/$name/package.json" 2>/dev/null
}
missing=0
for package in "${packages[@]}"; do
  installed "$package" || missing=1
done
if [ "$missing" = 0 ] \
  && [ -x "$cache/node_modules/opencode-ai/bin/opencode.exe" ] \
  && [ -x "$cache/node_modules/@anthropic-ai/claude-code/bin/claude.exe" ]; then
  exit 0
fi
npm install --no-audit --no-fund --loglevel=error --prefix "$cache" "${packages[@]}"
