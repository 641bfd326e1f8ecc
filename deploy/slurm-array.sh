#!/usr/bin/env bash
# Trendline as a Slurm job array, with the merge submitted to run after every task succeeds.
#
#   bash deploy/slurm-array.sh /shared/config/pipeline.json /shared/exports /shared/out 16
#
# Inputs and outputs are on a file system every node mounts (NFS, Lustre, a mounted bucket);
# logs and the task script go to LOGS (default: OUT-logs, beside OUT).
# The as-of is resolved once, here, and written with the pipeline, the folders and the shard
# count into LOGS/task-<as-of>.sh, the script every array task runs: each task's shard is
# its SLURM_ARRAY_TASK_ID (the array is 0…N−1), so every task of the night, and every retry,
# runs the same command for the same date.
#
# Retrying one failed shard, say 5, is that script again with that one index; it cannot pick
# another shard, and the log of the first attempt stays (logs are per job and task):
#
#   sbatch --array=5 OUT-logs/task-2026-12-01.sh
#
# then run the merge again: `trendline merge --output OUT OUT`.
set -euo pipefail
pipeline=$1 input=$2 output=$3 shards=${4:-16}
as_of=${AS_OF:-$(date -u +%F)}
# Beside the output, not in it: the output folder is Trendline's, and a run refuses one that
# holds anything it does not write.
logs=${LOGS:-$output-logs}
mkdir -p "$logs"

task="$logs/task-$as_of.sh"
cat >"$task" <<EOF
#!/usr/bin/env bash
#SBATCH --job-name=trendline-shard
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
#SBATCH --output=$logs/shard-%a-job-%A.log
# Written by deploy/slurm-array.sh for the night of $as_of; run as: sbatch --array=I $task
set -uo pipefail
trendline run '$pipeline' --input '$input' --output '$output' --shards $shards --as-of $as_of --log json
code=\$?
# 1 is "some users failed, the others were written": the shard is complete and its manifest
# names them; the merge still runs. Anything else fails the task.
[ \$code -eq 1 ] && exit 0
exit \$code
EOF

array=$(sbatch --parsable --array=0-$((shards - 1)) "$task")
sbatch --dependency=afterok:"$array" --job-name=trendline-merge --mem=2G \
  --output="$logs/merge-$as_of-job-%j.log" \
  --wrap="trendline merge --output '$output' '$output'"
echo "submitted array $array ($shards shards of $as_of, task script $task) and its merge"
