#!/usr/bin/env bash
# A night at scale, step by step: the cost of each step of deploy/nightly.sh on one machine,
# for a corpus `trendline generate` writes, so that a paper model for ten million users can be
# read off per user, per shard and per night (Benchmarks/README.md, "A night at scale").
#
#   list      trendline list --shards N                     (the whole input, once a night)
#   shard     trendline run --shard 0/N --listing           (one shard: does it follow its slice?)
#   shards    every other shard, one after another          (the night's run, summed)
#   check     trendline shards --listing                    (the driver's look between attempts)
#   merge     trendline merge --listing                     (the cohort, the manifest)
#   publish   trendline publish                             (record, metrics, the switch)
#
# Prints a row per step: wall and CPU seconds, peak RSS; then bytes and files written per user
# and the entries of the largest folder.
#
# Usage: Benchmarks/nights.sh [--users U] [--sessions S] [--shards N] [--layout partitioned]
#        (default 10000 users of 20 sessions, 16 shards, flat). With --layout partitioned the
#        corpus is written in partition folders and the pipeline says "layout": "partitioned"
#        (N must then divide 4096). Never part of CI.
set -euo pipefail
users=10000
sessions=20
shards=16
layout=flat
while [ $# -gt 0 ]; do
  case $1 in
    --users) users=$2; shift 2 ;;
    --sessions) sessions=$2; shift 2 ;;
    --shards) shards=$2; shift 2 ;;
    --layout) layout=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument '$1'; see --help" >&2; exit 2 ;;
  esac
done
for value in "$users" "$sessions" "$shards"; do
  case $value in ''|*[!0-9]*|0) echo "--users, --sessions and --shards take whole numbers of at least 1" >&2; exit 2 ;; esac
done
case $layout in flat|partitioned) ;; *) echo "--layout takes flat or partitioned" >&2; exit 2 ;; esac

. "$(dirname "$0")/common.sh"
build_trendline
work="$here/.work/nights-u$users-s$sessions-n$shards-$layout"
fresh_work "$work"
input="$here/.corpus/generated-u$users-s$sessions-$layout"
if [ ! -f "$input/.complete" ]; then
  echo "== generating $input" >&2
  rm -rf "$input.tmp"
  "$trendline" generate --users "$users" --seed 1 --sessions "$sessions" --output "$input.tmp" --layout "$layout" >&2
  touch "$input.tmp/.complete"
  mv "$input.tmp" "$input"
fi
pipeline="$root/Pipelines/overview.json"
if [ "$layout" = partitioned ]; then
  # The same pipeline, partitioned; its input is given with --input, so its folder matters not.
  sed 's/"version": 1,/"version": 1, "layout": "partitioned",/' "$pipeline" >"$work/overview-partitioned.json"
  pipeline="$work/overview-partitioned.json"
fi
night=2026-11-29
nightly="$work/root"
output="$nightly/nights/$night" listing="$nightly/listings/$night"
mkdir -p "$nightly/nights" "$nightly/listings"
find "$input" -type f -print0 | xargs -0 cat >/dev/null

row() { printf '%s\t%s\n' "$1" "$2"; }
common=(--input "$input" --output "$output" --as-of "$night" --listing "$listing")
{
  printf 'step\twall s\tpeak RSS kB\tCPU s\n'
  row list "$(timed list "$work" "$trendline" list --input "$input" --shards "$shards" --listing "$listing" \
    --layout "$layout")"
  row "shard 0 of $shards" "$(timed shard-0 "$work" "$trendline" run "$pipeline" --shard "0/$shards" --quiet "${common[@]}")"
  # The other shards, one after another: their sum is what the cluster spends.
  start=$(date +%s.%N)
  cpu=0 rss=0
  for ((i = 1; i < shards; i++)); do
    IFS=$'\t' read -r _ r c <<<"$(timed "shard-$i" "$work" "$trendline" run "$pipeline" --shard "$i/$shards" \
      --quiet "${common[@]}")"
    cpu=$(echo "$cpu + $c" | bc) && rss=$((r > rss ? r : rss))
  done
  row "shards 1-$((shards - 1)), summed" "$(echo "$(date +%s.%N) - $start" | bc)	$rss	$cpu"
  row check "$(timed check "$work" "$trendline" shards "$pipeline" --shards "$shards" "${common[@]}")"
  row merge "$(timed merge "$work" "$trendline" merge --output "$output" --input "$input" --listing "$listing" "$output")"
  row publish "$(timed publish "$work" "$trendline" publish "$nightly" --night "$night")"
} | tee "$work/steps.tsv" | column -t -s $'\t'

bytes=$(du -sb "$output" | cut -f1)
files=$(find "$output" -type f | wc -l)
largest=$(find "$output" -mindepth 1 -printf '%h\n' | sort | uniq -c | sort -n | tail -1)
input_largest=$(find "$input" -mindepth 1 -printf '%h\n' | sort | uniq -c | sort -n | tail -1)
input_bytes=$(du -sb "$input" | cut -f1)
echo
echo "users $users, sessions $sessions each; input $input_bytes bytes"
echo "written: $bytes bytes, $files files; per user $((bytes / users)) bytes, $((files / users)) files"
echo "largest folder: $largest entries; of the input: $input_largest entries"
echo "report/index.html: $(stat -c %s "$output/report/index.html" 2>/dev/null || echo none) bytes"
