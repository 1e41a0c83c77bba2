#!/usr/bin/env bash
# What the tests need beside npm: Chromium for the browser tests, and the local PostgreSQL that
# the database tests use, started when it is not running.
set -euo pipefail
bash "$(dirname "$0")/browser.sh"
if pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then exit 0; fi
if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
  echo "Starting PostgreSQL" >&2
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && exit 0; sleep 1; done
fi
echo "PostgreSQL is not reachable on 127.0.0.1:5432; set TEST_POSTGRES_URL to a server the tests may create databases on." >&2
exit 1
