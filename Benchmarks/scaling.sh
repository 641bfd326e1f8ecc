#!/usr/bin/env bash
# Many users: the peers' pipeline over 2,000 and 20,000 users of 15 sessions each
# (gen_corpus.py --users N --sessions-per-user 15 --seed 1), interleaved, each run R times;
# prints wall and CPU seconds, peak RSS, and the 10x-users ratios, which should be 10 +-15 %
# for time. Peak RSS is bounded by the users in flight plus what a run keeps per user (its
# manifest record and cohort series), so it grows far less than 10x.
#
# Usage: Benchmarks/scaling.sh [--repeats R] [--sessions S]
# Needs ../shared next to the checkout, python3, /usr/bin/time. Never part of CI.
set -euo pipefail
repeats=3
sessions=15
while [ $# -gt 0 ]; do
  case $1 in
    --repeats) repeats=$2; shift 2 ;;
    --sessions) sessions=$2; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument '$1'; see --help" >&2; exit 2 ;;
  esac
done

case $sessions in ''|*[!0-9]*|0) echo "--sessions takes a whole number of at least 1, not '$sessions'" >&2; exit 2 ;; esac
case $repeats in ''|*[!0-9]*|0) echo "--repeats takes a whole number of at least 1, not '$repeats'" >&2; exit 2 ;; esac

. "$(dirname "$0")/common.sh"
work="$here/.work/scaling-s$sessions"
small=$(corpus 2000 "$sessions")
large=$(corpus 20000 "$sessions")
build_trendline
fresh_work "$work"
results="$work/results.tsv"
: > "$results"

find -L "$small" "$large" -type f -name '*.csv' -print0 | xargs -0 cat > /dev/null
for r in $(seq 1 "$repeats"); do
  for n in 2000 20000; do
    data=$small
    [ "$n" = 20000 ] && data=$large
    # Assigned first, so a failed run stops the script (set -e) instead of writing an empty row.
    figures=$(timed "$n-$r" "$work" "$trendline" run "$peers/pipeline.json" --input "$data" \
      --as-of 2025-11-29 --output "$work/out-$n-$r" --quiet)
    printf '%s\t%s\n' "$n" "$figures" >> "$results"
  done
done

python3 - "$results" "$(cd "$root" && git rev-parse --short HEAD)" "$sessions" <<'PY'
import sys
results, revision, sessions = sys.argv[1:]
samples = {}
for line in open(results):
    name, wall, rss, cpu = line.split("\t")
    samples.setdefault(name, []).append((float(wall), int(rss) / 1024, float(cpu)))
median = {}
for name, runs in samples.items():
    ordered = sorted(runs)
    wall, _, cpu = ordered[(len(ordered) - 1) // 2]
    median[name] = (wall, max(r[1] for r in runs), cpu)
(w1, m1, c1), (w2, m2, c2) = median["2000"], median["20000"]
print(f"\n{sessions} sessions a user; trendline {revision}; median of {len(samples['2000'])} runs each\n")
print("| users | wall s | CPU s | peak RSS MB |")
print("| ---: | ---: | ---: | ---: |")
for name, (wall, rss, cpu) in median.items():
    print(f"| {int(name):,} | {wall:.2f} | {cpu:.2f} | {rss:,.0f} |")
def verdict(x):
    return "met" if 8.5 <= x <= 11.5 else "MISSED"
print(f"\n10x users: wall {w2 / w1:.2f}x ({verdict(w2 / w1)}, 8.5-11.5), CPU {c2 / c1:.2f}x ({verdict(c2 / c1)}), "
      f"peak RSS {m2 / m1:.2f}x")
print("Wall seconds of every run: " + "; ".join(
    f"{n} " + ", ".join(f"{r[0]:.2f}" for r in v) for n, v in samples.items()))
PY
