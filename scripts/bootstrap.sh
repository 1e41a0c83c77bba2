# Source this file: Node 22 on PATH, dependencies installed, Prisma clients generated.
# Used by scripts/dev.sh, scripts/test.sh and .ci/run, so all three set up the same way.
set -e
_svc_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$_svc_root"
source scripts/node22.sh
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # `npm install` installs the locked versions. Not `npm ci`: npm 11 writes lockfiles without
  # other platforms' optional packages (rollup, esbuild) and its `npm ci` then refuses them.
  echo "Installing dependencies" >&2
  if [ -n "${SVC_NODE_HEADERS:-}" ]; then
    npm_config_nodedir="$SVC_NODE_HEADERS" npm install --no-audit --no-fund --loglevel=error
  else
    npm install --no-audit --no-fund --loglevel=error
  fi
  touch node_modules/.package-lock.json
fi
npm run -s db:generate >/dev/null
set +e
