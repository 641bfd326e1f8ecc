#!/usr/bin/env bash
# The nightly driver: one sharded Trendline run on Slurm or Kubernetes, from submission to
# merge, that an operator can start again at any time.
#
#   deploy/nightly.sh slurm      PIPELINE INPUT OUTPUT SHARDS
#   deploy/nightly.sh kubernetes PIPELINE INPUT OUTPUT SHARDS
#
# 1. The as-of is resolved once, here (AS_OF, default today's date in UTC), and given to every
#    task and retry: an array that runs across midnight still runs one date.
# 2. `trendline shards` reads the output folder and names the shards merge would not take
#    (never ran, killed, another night's, another pipeline, an export arrived since). Only
#    those are submitted; on a first run, all of them.
# 3. After they end (or DEADLINE passes: they are cancelled, so nothing is left pending), the
#    folder is read again and what is still missing is re-run, up to RETRIES times, with the
#    same as-of and pipeline.
# 4. When every shard is complete, the merge runs, as a job of the scheduler.
#
# The output folder is the record, not the scheduler: re-running the driver for the same date
# submits only what is not done, and merges again only if a shard changed since the last
# merge. The driver waits for tasks of the same night still running (say, of a driver that
# was killed) before it decides anything, and two drivers of one night cannot run at once.
#
# Exit codes:
#   0  merged; every user succeeded
#   1  merged; some users failed on their data (OUTPUT/manifest.json says which and why; a
#      re-run cannot change that, so those shards are not retried)
#   2  bad arguments, or a shard or the merge failed on the pipeline file or the folders
#   3  shards still not complete after RETRIES re-runs: each is printed with its reason and
#      its logs; nothing was merged
#   4  the merge job failed (its log is printed)
#
# Environment:
#   AS_OF      the night's as-of, YYYY-MM-DD or an RFC 3339 instant (default: today in UTC)
#   RETRIES    re-runs of shards that did not complete (default 2)
#   DEADLINE   seconds a submission may take, queueing included, before it is cancelled
#              (default 43200, twelve hours)
#   POLL       seconds between looks at the scheduler (default 30)
#   TRENDLINE  the trendline binary the driver runs (default: trendline on PATH)
# Slurm:
#   LOGS       the task scripts and logs (default OUTPUT-logs, beside the output: the output
#              folder is Trendline's, and a run refuses one holding anything else)
#   SBATCH_OPTIONS  more options for every sbatch, such as "--partition=batch --account=x"
#   CPUS, MEM  per task (default 2 and 4G); the task's --jobs follows the CPUs Slurm gives it
# Kubernetes (run from the CronJob in deploy/kubernetes/, or any host with kubectl and the
# shared volume mounted at the same paths as in the pods):
#   IMAGE      the Trendline image (required)
#   NAMESPACE  (default: the current one)
#   TEMPLATES  the folder holding shards-job.yaml and merge-job.yaml (default: beside this
#              script, deploy/kubernetes/)
set -euo pipefail

usage() {
  sed -n '2,9p' "$0" >&2
  exit 2
}
[ $# -eq 5 ] || usage
scheduler=$1 pipeline=$2 input=$3 output=$4 shards=$5
case $scheduler in slurm | kubernetes) ;; *) usage ;; esac
case $shards in '' | *[!0-9]*) echo "nightly: SHARDS must be a whole number, not '$shards'" >&2; exit 2 ;; esac
as_of=${AS_OF:-$(date -u +%F)}
retries=${RETRIES:-2} deadline=${DEADLINE:-43200} poll=${POLL:-30}
trendline=${TRENDLINE:-trendline}
# Absolute paths: the tasks may start in another folder than the driver.
abs() { case $1 in /*) printf '%s\n' "$1" ;; *) printf '%s/%s\n' "$PWD" "$1" ;; esac; }
pipeline=$(abs "$pipeline") input=$(abs "$input") output=$(abs "$output")

say() { printf 'nightly %s: %s\n' "$as_of" "$*"; }

# The shards merge would not take, as "3,5" (empty when all are complete). `trendline shards`
# checks its arguments too, so a mistyped pipeline or as-of stops the driver here (exit 2)
# before anything is submitted.
to_run() {
  "$trendline" shards "$pipeline" --input "$input" --output "$output" --as-of "$as_of" \
    --shards "$shards" --to-run
}

# Whether the last merge is newer than every shard's marker: then re-merging would write the
# same files, and the night is done.
merged_since_shards() {
  [ -f "$output/_SUCCESS" ] && [ -f "$output/manifest.json" ] || return 1
  grep -q "\"asOf\" : \"$as_of\"" "$output/manifest.json" || return 1
  [ -z "$(find "$output/shards" -maxdepth 2 -name _SUCCESS -newer "$output/_SUCCESS" -print -quit)" ]
}

# Whether the last merge found every user ok: the merged manifest's own totals come last in
# it (its keys are in a fixed order, and each shard's totals come before them).
merged_status() {
  [ "$(grep '"usersFailed" :' "$output/manifest.json" | tail -1 | tr -dc 0-9)" = 0 ]
}

# --- Slurm ------------------------------------------------------------------------------

slurm_setup() {
  logs=${LOGS:-$output-logs}
  mkdir -p "$logs"
  logs=$(cd "$logs" && pwd)
  # One driver per night: a second one (cron fired twice, an operator's manual run) waits.
  exec 9>"$logs/driver-$as_of.lock"
  if ! flock -n 9; then
    say "another driver of this night holds $logs/driver-$as_of.lock; waiting for it"
    flock 9
  fi
  job_name="trendline-$as_of"
  task="$logs/task-$as_of.sh"
  # The task script is the retry-by-hand recipe too: `sbatch --array=5 $task` runs shard 5 of
  # this night and cannot run another (the shard is the task's own SLURM_ARRAY_TASK_ID).
  cat >"$task" <<EOF
#!/usr/bin/env bash
#SBATCH --job-name=$job_name
#SBATCH --cpus-per-task=${CPUS:-2}
#SBATCH --mem=${MEM:-4G}
#SBATCH --output=$logs/shard-%a-$as_of-job-%A.log
# Written by deploy/nightly.sh for the night of $as_of. Retry shard I by hand with:
#   sbatch --array=I $task
# Exit 1 means some users failed on their data: the shard is complete, and the driver does
# not retry it. Any other failure leaves the shard to the driver's next attempt.
exec '$trendline' run '$pipeline' --input '$input' --output '$output' --shards $shards --as-of '$as_of' --log json
EOF
}

# Waits until none of the jobs of this night is queued or running.
slurm_wait_idle() {
  local started=$SECONDS
  while [ -n "$(squeue -h -n "$job_name" -o %i 2>/dev/null)" ]; do
    if ((SECONDS - started > deadline)); then
      say "tasks of this night still queued or running after ${deadline}s; cancelling them"
      scancel -n "$job_name" || true
    fi
    sleep "$poll"
  done
}

# Submits the shards in $1 ("0-15" or "3,5") and returns when they have ended.
slurm_run_shards() {
  local id
  # shellcheck disable=SC2086 # SBATCH_OPTIONS is a list of options
  id=$(sbatch --parsable ${SBATCH_OPTIONS:-} --array="$1" "$task")
  say "submitted shards $1 as job ${id%%;*} (logs: $logs/shard-<I>-$as_of-job-${id%%;*}.log)"
  slurm_wait_idle
}

slurm_shard_logs() {
  ls -t "$logs"/shard-"$1"-"$as_of"-job-*.log 2>/dev/null || true
}

slurm_merge() {
  local merge="$logs/merge-$as_of.sh" status="$logs/merge-$as_of.status" id
  rm -f "$status"
  {
    echo '#!/usr/bin/env bash'
    echo "#SBATCH --job-name=$job_name"
    echo "#SBATCH --mem=${MERGE_MEM:-2G}"
    echo "#SBATCH --output=$logs/merge-$as_of-job-%j.log"
    echo "# Written by deploy/nightly.sh: the merge of $as_of's $shards shards."
    # The shard folders of this run, named: a folder of an earlier split (shards/3-of-8)
    # beside them must not make the merge refuse tonight's.
    printf "'%s' merge --output '%s'" "$trendline" "$output"
    for ((i = 0; i < shards; i++)); do printf " '%s/shards/%s-of-%s'" "$output" "$i" "$shards"; done
    echo
    echo "echo \$? >'$status'"
  } >"$merge"
  # shellcheck disable=SC2086
  id=$(sbatch --parsable ${SBATCH_OPTIONS:-} "$merge")
  say "submitted the merge as job $id (log: $logs/merge-$as_of-job-$id.log)"
  slurm_wait_idle
  merge_log="$logs/merge-$as_of-job-$id.log"
  merge_code=$(cat "$status" 2>/dev/null || echo "none (the job was killed or never ran)")
}

# --- Kubernetes -------------------------------------------------------------------------

kubernetes_setup() {
  : "${IMAGE:?IMAGE must name the Trendline image}"
  templates=${TEMPLATES:-$(dirname "$0")/kubernetes}
  kubectl_namespace=()
  [ -n "${NAMESPACE:-}" ] && kubectl_namespace=(--namespace "$NAMESPACE")
  # Names are never fixed, and Jobs are created, never applied: a Job of the same name from
  # another night or attempt would make `kubectl apply` a silent no-op. The run id tells
  # attempts of the same night apart.
  run_id=$(date -u +%H%M%S)
  jobs_this_night="app.kubernetes.io/name=trendline,trendline.dev/as-of=$as_of"
}

k() { kubectl "${kubectl_namespace[@]}" "$@"; }

# The night's shard folders as the pods see them, as YAML flow items: "/data/out/shards/0-of-N", …
shard_folders() {
  local i separator=
  for ((i = 0; i < shards; i++)); do
    printf '%s"/data/out/shards/%s-of-%s"' "$separator" "$i" "$shards"
    separator=', '
  done
}

# Renders a template: @NAME@, @AS_OF@, @IMAGE@, @COMPLETIONS@, @PARALLELISM@,
# @SHARD_OPTION@, @SHARD_VALUE@ and @SHARD_FOLDERS@.
render() {
  sed -e "s|@NAME@|$2|g" -e "s|@AS_OF@|$as_of|g" -e "s|@IMAGE@|$IMAGE|g" -e "s|@SHARD_FOLDERS@|$(shard_folders)|g" \
    -e "s|@COMPLETIONS@|${3:-1}|g" -e "s|@PARALLELISM@|${PARALLELISM:-${3:-1}}|g" \
    -e "s|@SHARD_OPTION@|${4:-}|g" -e "s|@SHARD_VALUE@|${5:-}|g" "$templates/$1"
}

# Waits until no Job of this night is still active (pods pending or running).
kubernetes_wait_idle() {
  local started=$SECONDS active
  while :; do
    active=$(k get jobs -l "$jobs_this_night" \
      -o jsonpath='{range .items[?(@.status.active)]}{.metadata.name}{"\n"}{end}' 2>/dev/null || true)
    active=$(printf '%s' "$active" | grep . || true)
    # A Job whose pods cannot be scheduled has no active pod but no end either.
    local unfinished
    unfinished=$(k get jobs -l "$jobs_this_night" \
      -o jsonpath='{range .items[*]}{.metadata.name} {.status.conditions[?(@.status=="True")].type}{"\n"}{end}' \
      2>/dev/null | awk 'NF && $0 !~ / (Complete|Failed)/ {print $1}' || true)
    [ -z "$active$unfinished" ] && return 0
    if ((SECONDS - started > deadline)); then
      say "jobs still unfinished after ${deadline}s, deleting them: $(tr "\n" " " <<<"$unfinished")"
      # Foreground: the Job stays listed until its pods are gone, so the driver waits for them
      # and a retry never writes a shard beside a pod still terminating.
      for job in $unfinished; do k delete job "$job" --cascade=foreground --wait=false || true; done
    fi
    sleep "$poll"
  done
}

kubernetes_run_shards() {
  local list=$1 attempt=$2 name
  if [ "$attempt" -eq 0 ] && [ "$list" = "0-$((shards - 1))" ]; then
    name="trendline-$as_of-shards-$run_id"
    render shards-job.yaml "$name" "$shards" --shards "$shards" | k create -f - >/dev/null
    say "created the Indexed Job $name ($shards shards)"
  else
    for i in ${list//,/ }; do
      name="trendline-$as_of-retry$attempt-shard-$i-$run_id"
      render shards-job.yaml "$name" 1 --shard "$i/$shards" | k create -f - >/dev/null
      say "created $name"
    done
  fi
  kubernetes_wait_idle
}

kubernetes_shard_logs() {
  # The pods of shard $1: index $1 of the night's Indexed Jobs, and the one-shard retries of
  # it. They keep their logs until their Job's ttlSecondsAfterFinished; the command is shown.
  k get pods -l "$jobs_this_night,trendline.dev/step=shards" -o jsonpath='{range .items[*]}{.metadata.name} '\
'{.metadata.labels.batch\.kubernetes\.io/job-name} {.metadata.labels.batch\.kubernetes\.io/job-completion-index}{"\n"}{end}' \
    2>/dev/null | while read -r pod job index; do
    case $job in
      *-shards-*) [ "$index" = "$1" ] || continue ;;
      *-shard-"$1"-*) ;;
      *) continue ;;
    esac
    echo "kubectl ${kubectl_namespace[*]:+${kubectl_namespace[*]} }logs pod/$pod"
  done
}

kubernetes_merge() {
  local name="trendline-$as_of-merge-$run_id" line
  render merge-job.yaml "$name" | k create -f - >/dev/null
  say "created the merge Job $name"
  kubernetes_wait_idle
  # The lowest exit code of the merge's pods: 0 when a retry succeeded, else the merge's own
  # 1 or 2 (final: FailJob), else the kill. Pod names do not sort by age.
  line=$(k get pods -l "batch.kubernetes.io/job-name=$name" -o jsonpath='{range .items[*]}'\
'{.status.containerStatuses[0].state.terminated.exitCode} {.metadata.name}{"\n"}{end}' 2>/dev/null |
    awk 'NF == 2' | sort -n | head -1 || true)
  merge_log="kubectl ${kubectl_namespace[*]:+${kubectl_namespace[*]} }logs pod/${line#* }"
  merge_code=${line%% *}
  merge_code=${merge_code:-"none (the pod was deleted or never ran)"}
}

# --- The night ------------------------------------------------------------------------

"${scheduler}_setup"
"${scheduler}_wait_idle"
list=$(to_run) || exit 2
attempt=0
while [ -n "$list" ]; do
  if [ "$attempt" -gt "$retries" ]; then
    say "shards still not complete after $retries re-runs; nothing was merged:"
    "$trendline" shards "$pipeline" --input "$input" --output "$output" --as-of "$as_of" --shards "$shards" |
      sed '$d' | while read -r line; do
      index=${line#shard }
      index=${index%%-of-*}
      echo "  $line"
      "${scheduler}_shard_logs" "$index" | sed 's/^/    log: /'
    done
    exit 3
  fi
  # The whole array on a first run, as a range Slurm and Kubernetes show compactly.
  if [ "$list" = "$(seq -s, 0 $((shards - 1)))" ]; then list="0-$((shards - 1))"; fi
  [ "$attempt" -gt 0 ] && say "re-running shards $list (attempt $attempt of $retries)"
  "${scheduler}_run_shards" "$list" "$attempt"
  list=$(to_run) || exit 2
  attempt=$((attempt + 1))
done

if merged_since_shards; then
  say "all $shards shards complete and merged already ($output/manifest.json)"
  merged_status && exit 0 || exit 1
fi
"${scheduler}_merge"
case $merge_code in
  0)
    say "merged $shards shards into $output; every user succeeded"
    exit 0
    ;;
  1)
    say "merged $shards shards into $output; some users failed on their data (named in $merge_log" \
      "and $output/manifest.json)"
    exit 1
    ;;
  2)
    say "the merge refused the shards; its log: $merge_log"
    exit 2
    ;;
  *)
    say "the merge failed (exit $merge_code); its log: $merge_log"
    exit 4
    ;;
esac
