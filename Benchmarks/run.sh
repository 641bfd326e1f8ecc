#!/usr/bin/env bash
# Ingest + normalize throughput on a generated corpus, release build, with the git revision.
# Usage: Benchmarks/run.sh [USERS] [SESSIONS]   (default 200 × 150; the full corpus is 2000 150)
# Never part of CI.
set -euo pipefail
users=${1:-200}
sessions=${2:-150}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
shared="$root/../shared"
corpus="$here/.corpus/u$users-s$sessions"
catalog="$shared/peers/catalog.json"
export PATH="/opt/swift/usr/bin:$PATH"

if [ ! -f "$corpus/users.csv" ]; then
  echo "generating $corpus (seed 1) ..."
  rm -rf "$corpus.tmp"
  # Generated into a temporary folder and renamed, so an interrupted run is never taken as done.
  python3 "$shared/peers/gen_corpus.py" --users "$users" --sessions-per-user "$sessions" --seed 1 --out "$corpus.tmp"
  mv "$corpus.tmp" "$corpus"
fi

swift build -c release --package-path "$here" 2>&1 | tail -1
bench="$(swift build -c release --package-path "$here" --show-bin-path)/trendline-benchmarks"
cd "$root"  # so the recorded revision is this checkout's

echo "== machine: $(nproc) cores, $(uname -sr), $(swift --version 2>/dev/null | head -1)"
echo "== corpus: $corpus ($(du -sb "$corpus" | awk '{printf "%.1f MB", $1/1e6}'), $(find -L "$corpus" -name '*.csv' | wc -l) files)"

# The floor: reading the same bytes and doing nothing with them (warms the page cache too).
start=$(date +%s.%N)
find -L "$corpus" -type f -name '*.csv' -print0 | xargs -0 cat > /dev/null
end=$(date +%s.%N)
bytes=$(find -L "$corpus" -type f -name '*.csv' -print0 | du -cb --files0-from=- | tail -1 | cut -f1)
awk -v s="$start" -v e="$end" -v b="$bytes" \
  'BEGIN { w = e - s; printf "== cat floor: %.1f MB in %.2f s = %.0f MB/s\n", b/1e6, w, b/1e6/w }'

echo "== ingest, --jobs 1"
"$bench" ingest "$corpus" --catalog "$catalog" --jobs 1
echo "== ingest, default jobs ($(nproc))"
"$bench" ingest "$corpus" --catalog "$catalog"
echo "== where the time goes (1 thread)"
"$bench" phases "$corpus" --catalog "$catalog"
