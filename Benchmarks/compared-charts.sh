#!/usr/bin/env bash
# Many compared charts: 200 against 800 copies of the overview pipeline's training-volume chart,
# every one compared across users, with the report (json, svg, html), over one generated corpus;
# prints wall and CPU seconds, peak RSS and the 4x-charts ratios, which should be 4 +-15 % for
# time. With --merge, the same charts also as two shards and a merge, the merge timed alone.
# A user's page holds every chart, so the outputs (and peak RSS) grow with the charts too.
#
# Usage: Benchmarks/compared-charts.sh [--users U] [--sessions S] [--repeats R] [--merge]
#        (default 20 users x 100 sessions, each run once; `trendline generate --seed 1`)
# Needs python3 and /usr/bin/time; not ../shared. Never part of CI.
set -euo pipefail
users=20
sessions=100
repeats=1
merge=0
while [ $# -gt 0 ]; do
  case $1 in
    --users) users=$2; shift 2 ;;
    --sessions) sessions=$2; shift 2 ;;
    --repeats) repeats=$2; shift 2 ;;
    --merge) merge=1; shift ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument '$1'; see --help" >&2; exit 2 ;;
  esac
done

case $users in ''|*[!0-9]*|0) echo "--users takes a whole number of at least 1, not '$users'" >&2; exit 2 ;; esac
case $sessions in ''|*[!0-9]*|0) echo "--sessions takes a whole number of at least 1, not '$sessions'" >&2; exit 2 ;; esac
case $repeats in ''|*[!0-9]*|0) echo "--repeats takes a whole number of at least 1, not '$repeats'" >&2; exit 2 ;; esac

. "$(dirname "$0")/common.sh"
asof=2026-11-29  # generate writes sessions up to 2026-11-28
work="$here/.work/compared-charts-u$users-s$sessions"
build_trendline
data="$here/.corpus/generated-u$users-s$sessions"
if [ ! -f "$data/users.csv" ]; then
  echo "== generating $data (seed 1)" >&2
  rm -rf "$data.tmp"
  "$trendline" generate --users "$users" --seed 1 --sessions "$sessions" --output "$data.tmp" > /dev/null
  mv "$data.tmp" "$data"
fi
fresh_work "$work"
results="$work/results.tsv"
: > "$results"

for n in 200 800; do
  python3 - "$root/Pipelines/overview.json" "$n" "$data" > "$work/charts-$n.json" <<'PY'
import json, sys
pipeline = json.load(open(sys.argv[1]))
chart = pipeline["charts"]["training-volume"]
names = [f"volume-{i:04d}" for i in range(int(sys.argv[2]))]
pipeline["charts"] = {name: chart for name in names}
pipeline["compare"]["charts"] = names
pipeline["source"]["input"] = sys.argv[3]
pipeline["output"]["formats"] = ["json", "svg", "html"]
json.dump(pipeline, sys.stdout)
PY
done

find -L "$data" -type f -print0 | xargs -0 cat > /dev/null
for r in $(seq 1 "$repeats"); do
  for n in 200 800; do
    # Assigned first, so a failed run stops the script (set -e) instead of writing an empty row.
    figures=$(timed "run-$n-$r" "$work" "$trendline" run "$work/charts-$n.json" --as-of "$asof" \
      --output "$work/out-$n-$r" --quiet)
    printf 'run %s\t%s\n' "$n" "$figures" >> "$results"
    rm -rf "$work/out-$n-$r"
    if [ "$merge" = 1 ]; then
      for shard in 0 1; do
        timed "shard-$n-$r-$shard" "$work" "$trendline" run "$work/charts-$n.json" --as-of "$asof" \
          --output "$work/sharded-$n-$r" --shard "$shard/2" --quiet > /dev/null
      done
      figures=$(timed "merge-$n-$r" "$work" "$trendline" merge --output "$work/sharded-$n-$r" "$work/sharded-$n-$r")
      printf 'merge %s\t%s\n' "$n" "$figures" >> "$results"
      rm -rf "$work/sharded-$n-$r"
    fi
  done
done

python3 - "$results" "$(cd "$root" && git rev-parse --short HEAD)" "$users" "$sessions" <<'PY'
import sys
results, revision, users, sessions = sys.argv[1:]
samples = {}
for line in open(results):
    name, wall, rss, cpu = line.split("\t")
    samples.setdefault(name, []).append((float(wall), int(rss) / 1024, float(cpu)))
median = {}
for name, runs in samples.items():
    ordered = sorted(runs)
    wall, _, cpu = ordered[(len(ordered) - 1) // 2]
    median[name] = (wall, max(r[1] for r in runs), cpu)
print(f"\n{users} users x {sessions} sessions; trendline {revision}; median of {len(samples['run 200'])} runs each\n")
print("| what | compared charts | wall s | CPU s | peak RSS MB |")
print("| --- | ---: | ---: | ---: | ---: |")
for name, (wall, rss, cpu) in median.items():
    what, n = name.split()
    print(f"| {what} | {int(n):,} | {wall:.2f} | {cpu:.2f} | {rss:,.0f} |")
def verdict(x):
    return "met" if 3.4 <= x <= 4.6 else "MISSED"
for what in ["run", "merge"]:
    if f"{what} 200" not in median:
        continue
    (w1, m1, c1), (w2, m2, c2) = median[f"{what} 200"], median[f"{what} 800"]
    print(f"\n{what}, 4x charts: wall {w2 / w1:.2f}x ({verdict(w2 / w1)}, 3.4-4.6), CPU {c2 / c1:.2f}x "
          f"({verdict(c2 / c1)}), peak RSS {m2 / m1:.2f}x")
print("Wall seconds of every run: " + "; ".join(
    f"{n} " + ", ".join(f"{r[0]:.2f}" for r in v) for n, v in samples.items()))
PY
