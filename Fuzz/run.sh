#!/usr/bin/env bash
# Builds one libFuzzer target and runs it for a given time.
#
#   Fuzz/run.sh TARGET SECONDS [extra libFuzzer flags...]
#   Fuzz/run.sh list                 # the targets
#   Fuzz/run.sh TARGET repro FILE... # run the fuzzer binary once on saved inputs
#
# SwiftPM cannot build a libFuzzer binary, so this compiles the package's library modules one by
# one with swiftc (each with -sanitize=fuzzer,address), in dependency order, into
# .build-fuzz/, then links Fuzz/TARGET.swift against them. Seeds come from SampleData and
# ../shared/conformance; new inputs the fuzzer finds go to .build-fuzz/corpus/TARGET (not
# committed); crashes, timeouts and out-of-memory inputs go to .build-fuzz/findings/TARGET.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
swiftc=${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}
build=$root/.build-fuzz
sanitize=${FUZZ_SANITIZE:-fuzzer,address}

targets=(csv-reader json-reader strong-csv hevy-csv fitnotes-csv fitbod-csv liftosaur-csv
  native-json ndjson hevy-json jefit-csv mapped-csv auto-export pipeline-loader as-of session-cache
  cohort-partial input-identity)

if [ "${1:-}" = list ] || [ $# -lt 2 ]; then
  printf '%s\n' "${targets[@]}"
  [ "${1:-}" = list ] && exit 0
  echo "usage: Fuzz/run.sh TARGET SECONDS [libFuzzer flags...]" >&2
  exit 2
fi
target=$1
shift
case " ${targets[*]} " in *" $target "*) ;; *) echo "unknown target $target" >&2; exit 2 ;; esac

# Which modules each target needs, in dependency order, and which entry file it uses.
modules=(TrendlineSchema TrendlineSupport TrendlineIngest)
entry=Fuzz/ExportTargets.swift
case $target in
  csv-reader) modules=(TrendlineSchema TrendlineSupport); entry=Fuzz/CSVReaderTarget.swift ;;
  json-reader) modules=(TrendlineSchema TrendlineSupport); entry=Fuzz/JSONReaderTarget.swift ;;
  pipeline-loader)
    modules=(TrendlineSchema TrendlineSupport TrendlineIngest TrendlineStages TrendlinePipeline)
    entry=Fuzz/PipelineLoaderTarget.swift
    ;;
  as-of) modules=(TrendlineSchema TrendlineSupport TrendlineStages); entry=Fuzz/AsOfTarget.swift ;;
  session-cache | cohort-partial | input-identity)
    modules=(TrendlineSchema TrendlineSupport TrendlineIngest TrendlineStages TrendlinePipeline TrendlineRender
      TrendlineRunner)
    case $target in
      session-cache) entry=Fuzz/SessionCacheTarget.swift ;;
      cohort-partial) entry=Fuzz/CohortPartialTarget.swift ;;
      *) entry=Fuzz/InputIdentityTarget.swift ;;
    esac
    ;;
esac

mkdir -p "$build/modules" "$build/bin"
objects=()
for module in "${modules[@]}"; do
  sources=(Sources/$module/*.swift)
  object=$build/modules/$module.o
  # Rebuild a module only when one of its sources is newer than its object.
  if [ ! -f "$object" ] || [ -n "$(find "Sources/$module" -newer "$object" -name '*.swift' | head -1)" ]; then
    echo "== compiling $module" >&2
    rm -f "$object"
    "$swiftc" -sanitize="$sanitize" -parse-as-library -O -wmo -module-name "$module" -package-name trendline \
      -swift-version 6 -I "$build/modules" -emit-module -emit-module-path "$build/modules/$module.swiftmodule" \
      -c "${sources[@]}" -o "$object" 2>&1 | grep -v "ld.gold: warning" >&2 || true
    [ -f "$object" ] || { echo "compiling $module failed" >&2; exit 1; }
  fi
  objects+=("$object")
done

binary=$build/bin/$target
define=$(echo "$target" | tr 'a-z-' 'A-Z_')
echo "== linking $target" >&2
"$swiftc" -sanitize="$sanitize" -parse-as-library -O -module-name FuzzTarget -package-name trendline -swift-version 6 \
  -D "TARGET_$define" -I "$build/modules" "$entry" "${objects[@]}" -o "$binary" 2>&1 |
  { grep -v "ld.gold: warning" >&2 || true; }
[ -x "$binary" ] || { echo "link failed" >&2; exit 1; }

if [ "${1:-}" = repro ]; then
  shift
  export SWIFT_BACKTRACE=enable=no
  exec "$binary" -rss_limit_mb=2048 -timeout=10 "$@"
fi
seconds=$1
shift

# Seeds: the files this target reads, from SampleData and the conformance suites.
seeds=$build/seeds/$target
corpus=$build/corpus/$target
findings=$build/findings/$target
rm -rf "$seeds"
mkdir -p "$seeds" "$corpus" "$findings"
seed() { for f in "$@"; do [ -f "$f" ] && cp "$f" "$seeds/$(echo "$f" | tr '/' '_')"; done; return 0; }
conformance=../shared/conformance
shopt -s globstar nullglob
case $target in
  csv-reader | strong-csv | hevy-csv | fitnotes-csv | fitbod-csv | liftosaur-csv | mapped-csv)
    # Fuzz/seeds/TARGET: stand-ins written for the project for layouts SampleData lacks.
    seed SampleData/exports/**/*.csv SampleData/mapped/*.csv $conformance/csv-spectrum/**/*.csv ../shared/real-exports/**/*.csv \
      Fuzz/seeds/$target/*.csv ;;
  json-reader)
    seed $conformance/json/**/*.json SampleData/*.json SampleData/exports/*.json ;;
  native-json | ndjson)
    seed SampleData/exports/*.json SampleData/exports/*.ndjson ../shared/real-exports/**/*.json ;;
  hevy-json)
    # Stand-ins written for the tests (the real pages are not ours to copy); the fuzzer grows
    # them from the page in Tests/TrendlineIngestTests/HevyJSONTests.swift.
    seed Fuzz/seeds/hevy-json/* ;;
  jefit-csv)
    seed Fuzz/seeds/jefit-csv/* ;;
  auto-export)
    seed SampleData/exports/**/* SampleData/mapped/*.csv ../shared/real-exports/**/* Fuzz/seeds/liftosaur-csv/*.csv \
      Fuzz/seeds/fitbod-csv/*.csv Fuzz/seeds/hevy-json/* Fuzz/seeds/jefit-csv/* ;;
  pipeline-loader)
    seed Pipelines/*.json Tests/Fixtures/pipelines/**/*.json ;;
  as-of)
    for text in 2025-11-29 1970-01-01 2199-12-31 0000-01-01 2024-02-29 2025-11-29T18:00:00Z \
      2025-10-26T02:30:00+02:00 1969-12-31T23:59:59-00:01 2199-12-31T23:59:59+14:00; do
      printf '%s' "$text" > "$seeds/$text"
    done ;;
  input-identity)
    # The first byte chooses the change (0 an export, 1 the shard's identity, 2 a user's, 3 none).
    for choice in 0 1 2 3; do printf "\\x0$choice%s" '2025-11-03 19:00:00,Push' > "$seeds/$choice"; done ;;
  session-cache | cohort-partial)
    # Written by `trendline run --cache` and `--shard` over SampleData (Fuzz/seeds/README.md).
    seed Fuzz/seeds/$target/* ;;
esac
# A dictionary of the tokens each format is built from helps the fuzzer past header checks.
dict=()
[ -f "Fuzz/dictionaries/$target.dict" ] && dict=(-dict="Fuzz/dictionaries/$target.dict")

# libFuzzer prints the stack of a crash itself; Swift's backtracer would also spawn a helper
# that outlives the fuzzer, holds the log pipe open and so stalls this script.
export SWIFT_BACKTRACE=enable=no
log=$build/$target.log
echo "== fuzzing $target for ${seconds}s ($(ls -A "$seeds" | wc -l) seeds); log: $log" >&2
set +e
"$binary" "$corpus" "$seeds" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
  -malloc_limit_mb=2048 -max_len=16384 -print_final_stats=1 -artifact_prefix="$findings/" \
  "${dict[@]}" "$@" 2>&1 | tee "$log" | grep -E '^(#[0-9]+.*(INITED|DONE)|==|SUMMARY|Done)' 
status=${PIPESTATUS[0]}
set -e
# One summary line per run: the final coverage and features, executions and time.
# (A run that stopped on a finding may have no such line: the greps must not end the script.)
done_line=$(grep -E '^#[0-9]+\s+(DONE|pulse|NEW|REDUCE|INITED)' "$log" | tail -1 || true)
execs=$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}' || true)
[ -n "$execs" ] || execs=$(echo "$done_line" | sed -n 's/^#\([0-9]*\).*/\1/p')
cov=$(echo "$done_line" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
ft=$(echo "$done_line" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
summary="$(date -u +%FT%TZ) $target seconds=$seconds execs=${execs:-?} cov=${cov:-?} ft=${ft:-?} exit=$status rev=$(git rev-parse --short HEAD)"
echo "$summary" | tee -a "$build/summary.txt"
echo "== $target exit $status; findings: $(ls "$findings" | wc -l) in $findings" >&2
exit "$status"
