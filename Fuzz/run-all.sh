#!/usr/bin/env bash
# Runs every fuzz target one after another (never in parallel), SECONDS each (default 600),
# and leaves one summary line per target in .build-fuzz/summary.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
for target in $(Fuzz/run.sh list); do
  nice -n 10 Fuzz/run.sh "$target" "$seconds" || echo "== $target stopped with a finding" >&2
done
