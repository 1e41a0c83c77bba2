#!/usr/bin/env bash
# Checks and unit-tests the example alert rules (ops/prometheus) with promtool. Installs Debian's
# prometheus package, which ships promtool, when it is missing; SVC_PROMTOOL_PATH points at another
# binary. Run as `npm run test:alerts`.
set -euo pipefail
cd "$(dirname "$0")/.."
promtool="${SVC_PROMTOOL_PATH:-$(command -v promtool || echo /usr/bin/promtool)}"
if [ ! -x "$promtool" ]; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo="sudo -n"; fi
  fi
  if command -v apt-get >/dev/null && { [ "$(id -u)" = 0 ] || [ -n "$sudo" ]; }; then
    echo "Installing promtool (Debian package prometheus) for the alert rule tests" >&2
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq >&2 || echo "apt-get update failed (offline?); trying the cached lists" >&2
    $sudo apt-get install -y -qq --no-install-recommends prometheus >/dev/null || true
  fi
  if [ ! -x "$promtool" ]; then
    echo "promtool is not at $promtool: install Debian's prometheus package, or set SVC_PROMTOOL_PATH." >&2
    exit 1
  fi
fi
"$promtool" check rules ops/prometheus/alerts.yml
"$promtool" test rules ops/prometheus/alerts.test.yml
# The dashboard's queries parse: each becomes a recording rule of a throwaway file, with Grafana's
# $__rate_interval as 5m.
rules="$(mktemp --suffix=.yml)"
trap 'rm -f "$rules"' EXIT
node -e '
const dashboard = JSON.parse(require("fs").readFileSync("ops/grafana/svc-protection.json", "utf8"));
const exprs = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
const rules = exprs.map((expr, i) => ({ record: `dashboard:query_${i}`, expr: expr.replaceAll("$__rate_interval", "5m") }));
console.log(JSON.stringify({ groups: [{ name: "dashboard", rules }] }));
' >"$rules"
echo "Checking the queries of ops/grafana/svc-protection.json"
"$promtool" check rules "$rules"
