#!/usr/bin/env bash
# A backfill over 52 weekly as-of dates in one pass (`--as-of FROM..TO --every week`) against
# 52 separate runs with those dates, on one corpus, in one run of this script: wall time, CPU
# and peak RSS from /usr/bin/time -v, the ratio, and a check that both wrote the same bytes.
#
# Usage: Benchmarks/backfill.sh [--users N] [--sessions S] [--weeks W]
#        (default 2000 x 150, the peers' default corpus, ~600 MB; 52 weeks to 2025-11-24)
# The pipeline is Pipelines/overview.json (four charts, two compared) writing JSON only: a
# backfill is for the numbers; SVG and HTML add the same work to both sides.
# Needs ../shared/peers/gen_corpus.py (to make the corpus once), python3, /usr/bin/time.
# Never part of CI. Exit 1 when the two outputs differ.
set -euo pipefail
users=2000
sessions=150
weeks=52
while [ $# -gt 0 ]; do
  case $1 in
    --users) users=$2; shift 2 ;;
    --sessions) sessions=$2; shift 2 ;;
    --weeks) weeks=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument '$1'; see --help" >&2; exit 2 ;;
  esac
done
. "$(dirname "$0")/common.sh"
work="$here/.work/backfill-u$users-s$sessions-w$weeks"
corpus=$(corpus "$users" "$sessions")
last=2025-11-24  # a Monday; the corpus runs to 2025-11-29
first=$(date -u -d "$last - $(((weeks - 1) * 7)) days" +%F)
build_trendline
fresh_work "$work"
pipeline="$work/overview-json.json"
sed -e 's#"formats": \["json", "svg", "html"\]#"formats": ["json"]#' "$root/Pipelines/overview.json" > "$pipeline"
grep -q '"formats": \["json"\]' "$pipeline" || { echo "could not set JSON output in $pipeline" >&2; exit 1; }

measure() {  # NAME COMMAND... : timed, the figures read back from NAME.time by `field`
  local name=$1
  shift
  timed "$name" "$work" "$@" > /dev/null
}
field() {  # NAME → "wall cpu rssMB"
  awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); w = 0; for (i = 1; i <= n; i++) w = w * 60 + p[i] }
    /User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident set size/ { r = $2 / 1024 }
    END { printf "%.2f %.2f %.0f", w, u + s, r }' "$work/$1.time"
}

# The page cache is warmed once, so both sides read from memory.
find -L "$corpus" -type f -print0 | xargs -0 cat > /dev/null
measure backfill "$trendline" run "$pipeline" --input "$corpus" --output "$work/backfill" \
  --as-of "$first..$last" --every week --quiet
# The same dates, one process each, each into the folder the backfill names for it.
measure separate bash -c "
  for week in \$(seq 0 $((weeks - 1))); do
    d=\$(date -u -d '$first + '\$((week * 7))' days' +%F)
    '$trendline' run '$pipeline' --input '$corpus' --output '$work/separate/as_of='\$d --as-of \$d --quiet || exit 1
  done"
measure rerun "$trendline" run "$pipeline" --input "$corpus" --output "$work/backfill" \
  --as-of "$first..$last" --every week

# The write floor: the same kind of tree written by a C tool, four snapshots copied with cp -a
# (8,000+ files, 100+ MB each), scaled to the whole backfill.
copy_from=$(ls -d "$work/separate"/as_of=* | head -4)
measure writefloor bash -c "mkdir -p '$work/copied' && cp -a $(echo $copy_from | sed "s#\([^ ]*\)#'\1'#g") '$work/copied/'"

failed=0
if diff -r -q -x manifest.json -x .trendline-output "$work/backfill" "$work/separate" > "$work/diff.txt"; then
  same="byte-identical but for the manifests' times"
else
  same="DIFFERENT ($(wc -l < "$work/diff.txt") entries, see $work/diff.txt)"
  failed=1
fi
read -r bw bc br <<< "$(field backfill)"
read -r sw sc sr <<< "$(field separate)"
read -r rw _ _ <<< "$(field rerun)"
read -r fw _ _ <<< "$(field writefloor)"
rows=$(awk -F'"rowsRead" : ' 'NF > 1 { split($2, a, ","); print a[1]; exit }' \
  <(grep -m1 -A12 '"totals"' "$work/backfill/as_of=$last/manifest.json"))
files=$(find "$work/backfill" -type f | wc -l)
echo "== machine: $(nproc) cores, $(uname -sr); corpus $corpus, $(du -sbL "$corpus" | awk '{printf "%.0f MB", $1/1e6}'), $rows rows"
echo "== $weeks weekly snapshots, $first to $last; $files files written by each side"
printf '%-28s %9s %9s %9s\n' "" "wall s" "CPU s" "peak MB"
printf '%-28s %9s %9s %9s\n' "backfill (one pass)" "$bw" "$bc" "$br" "$weeks separate runs" "$sw" "$sc" "$sr"
awk -v b="$bw" -v s="$sw" -v bc="$bc" -v sc="$sc" -v r="$rows" -v w="$weeks" 'BEGIN {
  printf "ratio: %.2fx faster in wall time, %.2fx less CPU; %.0f rows/s read by the backfill, %.2f s per snapshot\n",
    s / b, sc / bc, r / b, b / w }'
awk -v f="$fw" -v w="$weeks" -v b="$bw" 'BEGIN {
  printf "write floor (cp -a of 4 snapshots, scaled): %.2f s per snapshot, %.1f s for %d; the backfill is %.1fx it\n",
    f / 4, f / 4 * w, w, b / (f / 4 * w) }'
echo "re-run with every snapshot complete: $rw s ($(tail -1 "$work/rerun.log"))"
echo "outputs: $same"
exit $failed
