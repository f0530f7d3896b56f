#!/bin/sh
# Stands in for a VS Code executable when nothing can be downloaded: @vscode/test-electron starts it
# with VS Code's test arguments, and it forwards them to the code-server harness (.vscode-test.mjs).
cd "$(dirname "$0")/.." && exec node --import tsx scripts/vscode-test-forward.ts "$@"
