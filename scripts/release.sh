#!/usr/bin/env bash
# Usage: bash scripts/release.sh <directory>
#
# Assembles the release: what the Docker image's runtime stage holds, and all a server needs to
# run the web process, the worker, the release step (migrations) and the operator CLI. Run from a
# checkout with every dependency installed (the Dockerfile's build stage, or CI after
# scripts/bootstrap.sh). The Dockerfile calls this script, and `npm run test:release` boots what
# it assembles, so CI checks what the image runs (decision 040).
#
# The directory gets:
#   package.json, package-lock.json, tsconfig.json   the npm scripts, and tsx's settings
#   node_modules/      production dependencies only: `npm ci --omit=dev` from the lockfile
#   build/             the Remix build (client assets and server bundle)
#   server/            the entry points, run through tsx (no compile step)
#   app/               the sources server/ imports at run time, with the generated Prisma
#                      clients (app/generated; node_modules/.prisma for the session storage),
#                      without tests
#   prisma/migrations/ the SQL the release step applies
#   scripts/migrate.ts, scripts/svc.ts   npm run db:migrate and npm run svc
set -euo pipefail

dest="${1:-}"
if [ -z "$dest" ]; then
  echo "usage: bash scripts/release.sh <directory>  (a new or empty directory)" >&2
  exit 2
fi
if [ -e "$dest" ] && [ -n "$(ls -A "$dest")" ]; then
  echo "release: $dest is not empty; give a new or empty directory" >&2
  exit 2
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
say() { echo "release: $*" >&2; }

# The benchmarks' rule (ensureBuild): build when build/ is missing or older than a source,
# under the lock every build on one machine takes. The image's build stage starts without
# build/ (.dockerignore), so it always builds.
server_bundle=build/server/index.js
newer_source() {
  find app vite.config.ts prisma/schema.prisma package-lock.json -path app/generated -prune \
    -o -newer "$server_bundle" -print -quit
}
if [ -f "$server_bundle" ] && [ -z "$(newer_source)" ]; then
  say "build/ is newer than app/: reusing it"
else
  say "npm run build"
  build_log="$(mktemp)"
  lock=()
  if command -v flock >/dev/null; then lock=(flock /tmp/svc-build.lock); fi
  if ! "${lock[@]}" npm run -s build >"$build_log" 2>&1; then
    cat "$build_log" >&2
    say "npm run build failed"
    exit 1
  fi
  rm -f "$build_log"
fi
say "npm run db:generate (the Prisma clients)"
generate_log="$(mktemp)"
if ! npm run -s db:generate >"$generate_log" 2>&1; then
  cat "$generate_log" >&2
  say "npm run db:generate failed"
  exit 1
fi
rm -f "$generate_log"

mkdir -p "$dest"
dest="$(cd "$dest" && pwd)"
say "copying the build and the sources into $dest"
cp package.json package-lock.json tsconfig.json "$dest/"
cp -R build server app "$dest/"
find "$dest/app" "$dest/server" -type f \
  \( -name '*.test.ts' -o -name '*.test.tsx' -o -name '*.test-support.ts' \) -delete
mkdir -p "$dest/prisma" "$dest/scripts"
cp -R prisma/migrations "$dest/prisma/"
cp scripts/migrate.ts scripts/svc.ts "$dest/scripts/"
if [ -d public ]; then cp -R public "$dest/"; fi

# better-sqlite3 is a native addon: its install script downloads a prebuilt binary for this
# Node and libc, or compiles one (python3, make and g++ in the image's build stage).
say "npm ci --omit=dev (production dependencies from package-lock.json)"
(cd "$dest" && npm ci --omit=dev --no-audit --no-fund --loglevel=error >&2)
# The client @shopify/shopify-app-session-storage-prisma imports (@prisma/client), which
# db:generate writes into node_modules/.prisma beside the app's own (prisma/schema.prisma).
cp -R node_modules/.prisma "$dest/node_modules/"
say "done: $(du -sh "$dest" | cut -f1) in $dest"
