#!/usr/bin/env bash
# README command 2: the whole test suite (types, lint, unit, SQLite, PostgreSQL).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/services.sh
source scripts/bootstrap.sh
npm test
