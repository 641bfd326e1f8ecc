#!/usr/bin/env bash
# Trendline as a Slurm job array, with the merge submitted to run after every task succeeds.
#
#   bash deploy/slurm-array.sh /shared/config/pipeline.json /shared/exports /shared/out 16
#
# Inputs and outputs are on a file system every node mounts (NFS, Lustre, a mounted
# bucket). Each array task runs one shard: Slurm sets SLURM_ARRAY_TASK_ID and
# SLURM_ARRAY_TASK_COUNT, which `trendline run` reads. The merge is submitted with
# --dependency=afterok, so it starts only when every task exited 0.
#
# Retrying one failed shard (say task 5):
#   sbatch --array=5 --export=ALL,SHARDS=16 ... (the same task script), or on any node:
#   trendline run PIPELINE --input IN --output OUT --shard 5/16
# then run the merge again: `trendline merge --output OUT OUT`.
set -euo pipefail
pipeline=$1 input=$2 output=$3 shards=${4:-16}
as_of=${AS_OF:-$(date -u +%F)}
mkdir -p "$output/logs"

array=$(sbatch --parsable --array=0-$((shards - 1)) --cpus-per-task=2 --mem=4G \
  --job-name=trendline-shard --output="$output/logs/shard-%a.log" \
  --wrap="trendline run '$pipeline' --input '$input' --output '$output' --shards $shards --as-of $as_of --log json; code=\$?; [ \$code -eq 1 ] && exit 0; exit \$code")

sbatch --dependency=afterok:"$array" --job-name=trendline-merge --mem=2G \
  --output="$output/logs/merge.log" \
  --wrap="trendline merge --output '$output' '$output'"
echo "submitted array $array ($shards shards) and its merge"
