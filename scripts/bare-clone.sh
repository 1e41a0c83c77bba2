#!/usr/bin/env bash
# The repository as a newcomer gets it: the committed HEAD cloned into an empty directory, with
# nothing beside it (no ../shared, no Dawn). Bootstraps it (npm install from the warm npm cache
# when there is one), runs README command 1's smoke check there and then the unit tests, which
# hold the fixture tests. Leaves nothing running; the clone is removed unless SVC_BARE_CLONE_KEEP=1.
# Usage: npm run test:bare-clone
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/svc-bare-clone.XXXXXX")"
clone="$work/empty/svc-protection"
summary=()
failed=0
started=$SECONDS

finish() {
  local status=$? kept="removed"
  if [ "${SVC_BARE_CLONE_KEEP:-}" = 1 ]; then kept="kept"; else rm -rf "$work"; fi
  echo
  echo "Bare clone of $(git -C "$repo" rev-parse --short HEAD) in $clone ($kept):"
  local line
  for line in "${summary[@]}"; do echo "  $line"; done
  echo "  total: $((SECONDS - started)) s"
  if [ "$failed" -ne 0 ] || [ "$status" -ne 0 ]; then
    echo "Bare clone: FAILED"
    exit 1
  fi
  echo "Bare clone: passed"
}
trap finish EXIT

# Runs one step, timed, into the summary; the steps after a failed one still run.
step() {
  local name="$1" began=$SECONDS
  shift
  echo
  echo "== $name"
  if "$@"; then
    summary+=("ok    $name ($((SECONDS - began)) s)")
  else
    summary+=("FAIL  $name ($((SECONDS - began)) s)")
    failed=1
  fi
}

# Nothing from this shell may point the clone beside itself.
unset SHOPIFY_THEMES_DIR SHOPIFY_FIXTURES_DIR DATABASE_URL
export CI="${CI:-true}"

mkdir -p "$work/empty"
step "git clone --no-local (committed HEAD only)" \
  git clone --quiet --no-local "$repo" "$clone"
cd "$clone"
[ -z "$(ls -A "$work/empty" | grep -vx svc-protection)" ] || {
  echo "Something lies beside the clone" >&2
  exit 1
}

bootstrap() {
  # The machine's npm cache first: a newcomer's second install, and CI's, need not fetch again.
  export npm_config_prefer_offline=true
  # shellcheck source=scripts/bootstrap.sh
  source scripts/bootstrap.sh && [ -x node_modules/.bin/vitest ]
}
step "bootstrap (scripts/bootstrap.sh: Node 22, npm install, Prisma clients)" bootstrap </dev/null
step "command 1 smoke check (scripts/dev-smoke.ts)" \
  node --import tsx scripts/dev-smoke.ts </dev/null
step "npm run test:unit" npm run -s test:unit </dev/null
