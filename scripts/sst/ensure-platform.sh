#!/usr/bin/env bash
# Installs SST's platform (component sources, config.d.ts, @pulumi/*) into .sst/platform without AWS or GitHub access.
# Idempotent: returns at once when the platform for the pinned sst version is already installed.
# Safe to call from parallel test files: one install at a time under a lock.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

want="$(node -p 'require("./node_modules/sst/package.json").version')"
stamp=".sst/platform/.ensure-platform-version"

ready() {
  [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]] &&
    [[ -f .sst/platform/config.d.ts ]] &&
    [[ -f .sst/platform/node_modules/@pulumi/pulumi/package.json ]] &&
    [[ -f .sst/platform/node_modules/@pulumi/aws/package.json ]]
}

if ready; then
  exit 0
fi

mkdir -p .sst
exec 9>.sst/ensure-platform.lock
flock 9

# Another caller may have finished the install while we waited for the lock.
if ready; then
  exit 0
fi

start=$(date +%s)
echo "ensure-platform: installing SST ${want} platform into .sst/platform (offline, npm only)..." >&2
# The CLI would first download Pulumi and Bun from GitHub (SST_SKIP_DEPENDENCY_CHECK skips that) and then
# installs the platform's npm dependencies (@pulumi/aws, @pulumi/pulumi, ...) with npm: reuse npm's cache.
SST_SKIP_DEPENDENCY_CHECK=1 SST_NO_BUN=1 SST_TELEMETRY_DISABLED=1 \
  npm_config_prefer_offline="${npm_config_prefer_offline:-true}" \
  npm_config_audit=false npm_config_fund=false \
  npx --no-install sst install --stage "${SST_STAGE:-offline-check}" </dev/null >&2
echo "$want" >"$stamp"
echo "ensure-platform: done in $(($(date +%s) - start)) s ($(du -sh .sst | cut -f1) in .sst)" >&2
