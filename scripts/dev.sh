#!/usr/bin/env bash
# README command 1: the app on http://localhost:3000 with SQLite and the protection-service
# emulator on http://127.0.0.1:4010, no Shopify account needed.
set -euo pipefail
source "$(dirname "$0")/bootstrap.sh"
exec npm run -s local
