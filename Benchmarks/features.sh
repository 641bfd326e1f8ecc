#!/usr/bin/env bash
# What each newer feature costs: the peers' pipeline (../shared/peers/pipeline.json) as the
# base, then the same pipeline with one addition at a time (a filter in front of each chart,
# per-exercise measures, a records chart, segments, tables, the HTML report), all on one corpus
# in one run, each timed with /usr/bin/time -v and set against the base.
#
# Usage: Benchmarks/features.sh [--users N] [--sessions S] [--repeats R]
#        (default 2000 x 150; each run R = 3 times, the median reported)
# Needs ../shared next to the checkout, python3, /usr/bin/time. Never part of CI.
set -euo pipefail
users=2000
sessions=150
repeats=3
while [ $# -gt 0 ]; do
  case $1 in
    --users) users=$2; shift 2 ;;
    --sessions) sessions=$2; shift 2 ;;
    --repeats) repeats=$2; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument '$1'; see --help" >&2; exit 2 ;;
  esac
done

case $users in ''|*[!0-9]*|0) echo "--users takes a whole number of at least 1, not '$users'" >&2; exit 2 ;; esac
case $sessions in ''|*[!0-9]*|0) echo "--sessions takes a whole number of at least 1, not '$sessions'" >&2; exit 2 ;; esac
case $repeats in ''|*[!0-9]*|0) echo "--repeats takes a whole number of at least 1, not '$repeats'" >&2; exit 2 ;; esac

. "$(dirname "$0")/common.sh"
asof=2025-11-29
work="$here/.work/features-u$users-s$sessions"
corpus=$(corpus "$users" "$sessions")
build_trendline
fresh_work "$work"
mkdir -p "$work/pipelines"

# The variants, written from the peers' pipeline so the base is exactly what the peers run.
# Each adds one thing; "all" adds every one.
python3 - "$peers/pipeline.json" "$peers/catalog.json" "$work/pipelines" "$corpus" <<'PY'
import copy, json, sys
source, catalog, folder, corpus = sys.argv[1:]
base = json.load(open(source))
base["source"]["catalog"] = catalog
base["source"]["input"] = corpus

def variant(name, change):
    pipeline = copy.deepcopy(base)
    pipeline["name"] = name
    change(pipeline)
    json.dump(pipeline, open(f"{folder}/{name}.json", "w"), indent=1)

def filters(p):
    # Working sets only, in front of every chart: a stage that rebuilds every session.
    for stages in p["charts"].values():
        stages.insert(0, {"filter": {"setTypes": ["normal", "failure", "dropset"]}})

def per_exercise(p):
    p["charts"]["bench-e1rm"] = [
        {"filter": {"exercises": ["Bench Press (Barbell)"]}},
        {"bucket": {"range": "all", "granularity": "month", "measures": ["e1rmKg", "topSetKg", "sets", "reps"]}},
        {"fillGaps": {}},
        {"smooth": {"method": "trailing-mean", "window": 3}}]

def records(p):
    p["charts"]["big-three-records"] = [
        {"filter": {"exercises": ["Squat (Barbell)", "Bench Press (Barbell)", "Deadlift (Barbell)"]}},
        {"records": {}}]
    p["charts"]["records-per-month"] = [
        {"bucket": {"range": "all", "granularity": "month", "measures": ["records"]}}, {"fillGaps": {}}]

def segments(p):
    p["compare"] = {"charts": ["training-volume", "muscle-balance"], "groupBy": "weightUnit"}

def tables(p):
    p["output"]["formats"] = ["json", "tables"]

def report(p):
    p["output"]["formats"] = ["json", "svg", "html"]

variant("base", lambda p: None)
variant("filters", filters)
variant("per-exercise", per_exercise)
variant("records", records)
variant("segments", segments)
variant("tables", tables)
variant("report", report)
variant("all", lambda p: [f(p) for f in (filters, per_exercise, records, segments, tables)])
PY

results="$work/results.tsv"
: > "$results"
find -L "$corpus" -type f -name '*.csv' -print0 | xargs -0 cat > /dev/null
variants="base filters per-exercise records segments tables report all"
for r in $(seq 1 "$repeats"); do
  for v in $variants; do
    # Assigned first, so a failed run stops the script (set -e) instead of writing an empty row.
    figures=$(timed "$v" "$work" "$trendline" run "$work/pipelines/$v.json" --input "$corpus" \
      --as-of "$asof" --output "$work/out-$v-$r" --quiet)
    printf '%s\t%s\n' "$v" "$figures" >> "$results"
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
base_wall, base_rss, base_cpu = median["base"]
print(f"\n{users} users x {sessions} sessions; trendline {revision}; median of {len(samples['base'])} runs each\n")
print("| pipeline | wall s | CPU s | peak RSS MB | wall / base | CPU / base |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
for name, (wall, rss, cpu) in median.items():
    print(f"| {name} | {wall:.2f} | {cpu:.2f} | {rss:,.0f} | {wall / base_wall:.2f} | {cpu / base_cpu:.2f} |")
print("\nWall seconds of every run: " + "; ".join(
    f"{n} " + ", ".join(f"{r[0]:.2f}" for r in v) for n, v in samples.items()))
PY
echo
echo "outputs and logs: $work"
