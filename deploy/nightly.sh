#!/usr/bin/env bash
# The nightly driver: one sharded Trendline run on Slurm or Kubernetes, from submission to
# a published night, that an operator can start again at any time.
#
#   deploy/nightly.sh slurm      PIPELINE INPUT ROOT SHARDS
#   deploy/nightly.sh kubernetes PIPELINE INPUT ROOT SHARDS
#   deploy/nightly.sh aws-batch  PIPELINE INPUT ROOT SHARDS
#
# ROOT is the nightly root (Guides/Nights.md): the night of AS_OF is written to
# ROOT/nights/AS_OF, its listing to ROOT/listings/AS_OF, its logs to ROOT/logs/AS_OF, and
# readers follow ROOT/current, which names the last night that finished.
#
# 1. The as-of is resolved once, here (AS_OF, default today's date in UTC), and given to every
#    task and retry: an array that runs across midnight still runs one date.
# 2. The input is listed once for the night (`trendline list`, kept in ROOT/listings/AS_OF):
#    every task, retry, check and the merge read the users and files it names, so exports
#    arriving during the night wait for the next one. A driver run again for the same night
#    keeps the listing it made.
# 3. `trendline shards` reads the night's folder and names the shards merge would not take
#    (never ran, killed, another pipeline, a listed export corrected since). Only those are
#    submitted; on a first run, all of them.
# 4. After they end (or DEADLINE passes: they are cancelled, so nothing is left pending), the
#    folder is read again and what is still missing is re-run, up to RETRIES times, with the
#    same as-of and pipeline.
# 5. When every shard is complete, the merge runs, as a job of the scheduler.
# 6. The merged night is published (`trendline publish`): ROOT/current moves to it in one
#    rename, ROOT/nights.csv and ROOT/metrics/trendline.prom record it, and nights beyond the
#    newest KEEP are removed with their listings and logs. A night that fails at any step is
#    not published: ROOT/current keeps naming the last one that finished.
#
# Every line the driver prints is one JSON object (ts, level, event, command "nightly",
# asOf, job where the scheduler gives one, message; shard where it is about one), as are
# the tasks', the merge's and the publish's (`--log json`). A driver stopped by TERM or INT
# says so in a line before it exits.
#
# The output folder is the record, not the scheduler: re-running the driver for the same date
# submits only what is not done, and merges again only if a shard changed since the last
# merge. The driver waits for tasks of the same night still running (say, of a driver that
# was killed) before it decides anything. On Slurm a lock beside the output keeps to one
# driver per output folder; on Kubernetes the CronJob's concurrencyPolicy does.
#
# Exit codes:
#   0  merged and published; every user succeeded
#   1  merged and published; some users failed on their data (OUTPUT/manifest.json says which and why; a
#      re-run cannot change that, so those shards are not retried)
#   2  bad arguments, or a shard or the merge failed on the pipeline file or the folders
#   3  shards still not complete after RETRIES re-runs: each is printed with its reason and
#      its logs; nothing was merged
#   4  the merge job failed (its log is printed)
#   5  the driver itself failed: a scheduler command refused (sbatch, kubectl create), or any
#      other command; the line is printed
#   6  merged, but not published (the night lost more than half the published night's users,
#      or ROOT/current cannot be written); the publish's line says why, and the previous
#      night stays published
#  130, 143  the driver was stopped by INT or TERM (tasks already submitted go on; run the
#      driver again for the same night and it waits for them)
#
# Environment:
#   AS_OF      the night's as-of, YYYY-MM-DD (default: today's date in UTC; a date, because
#              it names jobs, labels and logs)
#   RETRIES    re-runs of shards that did not complete (default 2)
#   DEADLINE   seconds the whole night may take, queueing, retries and merge included; what
#              is still queued or running then is cancelled (default 43200, twelve hours)
#   POLL       seconds between looks at the scheduler (default 30)
#   KEEP       nights kept in ROOT/nights, with their listings and logs (default 14)
#   TRENDLINE  the trendline binary the driver runs (default: trendline on PATH)
# Slurm:
#   LOGS       the task scripts and logs (default ROOT/logs/AS_OF, removed with the night;
#              not inside the night's folder, which is Trendline's)
#   SBATCH_OPTIONS  more options for every sbatch, such as "--partition=batch --account=x"
#   CPUS, MEM  per task (default 2 and 4G); the task's --jobs follows the CPUs Slurm gives it
# Kubernetes (run from the CronJob in deploy/kubernetes/, or any host with kubectl and the
# shared volume mounted at the same paths as in the pods: the driver lists the input and
# publishes the night itself):
#   IMAGE      the Trendline image (required)
#   NAMESPACE  (default: the current one)
#   TEMPLATES  the folder holding shards-job.yaml and merge-job.yaml (default: beside this
#              script, deploy/kubernetes/)
# AWS Batch (run on a host or in a job that mounts the shared file system at the same path as
# the containers, /data in deploy/aws-batch/; the job definitions registered from there):
#   JOB_QUEUE  the job queue (required)
#   SHARD_DEFINITION, MERGE_DEFINITION  the job definitions (default trendline-shard and
#              trendline-merge); the driver passes every path as a parameter
set -Eeuo pipefail

# One JSON line: log LEVEL EVENT MESSAGE [SHARD]. Keys in order; the message escaped as JSON
# strings need (a path may hold a quote or a backslash).
json_text() {
  local text=$1
  text=${text//\\/\\\\}
  text=${text//\"/\\\"}
  text=${text//$'\n'/\\n}
  text=${text//$'\t'/\\t}
  printf '%s' "$text" | tr -d '\000-\010\013-\037'
}
# The driver's own job: given, Slurm's, or the CronJob's pod (its host name, in a pod only).
job_id=${TRENDLINE_JOB_ID:-${SLURM_JOB_ID:-${AWS_BATCH_JOB_ID:-${KUBERNETES_SERVICE_HOST:+${HOSTNAME:-}}}}}
log() {
  local level=$1 event=$2 message=$3 shard=${4:-} extra=''
  [ -n "$job_id" ] && extra+=",\"job\":\"$(json_text "$job_id")\""
  extra+=",\"level\":\"$level\",\"message\":\"$(json_text "$message")\""
  [ -n "$shard" ] && extra+=",\"shard\":\"$shard\""
  printf '{"asOf":"%s","command":"nightly","event":"%s"%s,"ts":"%s"}\n' \
    "$(json_text "${as_of:-}")" "$event" "$extra" "$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ)"
}
# Any command that fails unexpectedly ends the night with its own code 5, never with 1, which
# means "merged; some users failed".
# shellcheck disable=SC2154 # failed is set inside the trap
trap 'failed=$?; log error failed "the driver failed at line $LINENO (exit $failed)" >&2; exit 5' ERR
# A driver killed by the scheduler or an operator says so: tasks it submitted go on running.
trap 'log error stopped "the driver was stopped by TERM; tasks already submitted go on, and the driver run again waits for them" >&2; exit 143' TERM
trap 'log error stopped "the driver was stopped by INT; tasks already submitted go on, and the driver run again waits for them" >&2; exit 130' INT

usage() {
  sed -n '2,11p' "$0" >&2
  exit 2
}
[ $# -eq 5 ] || usage
scheduler=$1 pipeline=$2 input=$3 root=$4 shards=$5
case $scheduler in slurm | kubernetes | aws-batch) ;; *) usage ;; esac
# The functions of the scheduler: slurm_setup, kubernetes_setup, aws_batch_setup, ….
scheduler=${scheduler//-/_}
# Every number is checked here, in base 10: `08` or `abc` in shell arithmetic would fail late,
# loop forever, or evaluate an array subscript.
whole() {
  case $2 in '' | *[!0-9]*) log error usage "$1 must be a whole number, not '$2'" >&2; exit 2 ;; esac
  printf '%s\n' "$((10#$2))"
}
shards=$(whole SHARDS "$shards") || exit 2
retries=$(whole RETRIES "${RETRIES:-2}") || exit 2
deadline=$(whole DEADLINE "${DEADLINE:-43200}") || exit 2
poll=$(whole POLL "${POLL:-30}") || exit 2
keep=$(whole KEEP "${KEEP:-14}") || exit 2
if ((keep < 1 || keep > 10000)); then
  log error usage "KEEP must be from 1 to 10000 nights, not $keep" >&2
  exit 2
fi
as_of=${AS_OF:-$(date -u +%F)}
if ! [[ $as_of =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]]; then
  bad=$as_of as_of=''
  log error usage "AS_OF must be a date, YYYY-MM-DD, not '$bad'" >&2
  exit 2
fi
trendline=${TRENDLINE:-trendline}
# Absolute and without trailing slashes: the tasks may start in another folder.
abs() { realpath -m -- "$1"; }
pipeline=$(abs "$pipeline") input=$(abs "$input") root=$(abs "$root")
output=$root/nights/$as_of listing=$root/listings/$as_of
mkdir -p "$root/nights" "$root/listings" "$root/logs"
# The night's budget: every wait below ends by then.
ends=$((SECONDS + deadline))
q() { printf '%q' "$1"; }

say() { log info driver "$*"; }

# Sleeps $1 seconds in the background and waits for it: bash runs a trap only when the
# foreground command ends, so a TERM during `sleep 30` was said 30 s late, after a pod's grace
# period had killed the driver.
pause() {
  sleep "$1" &
  wait $!
}

# Takes the lock on descriptor 9 the same way: a driver stopped while it waits says so.
take_lock() {
  if ! flock -n 9; then
    say "another driver holds $root/logs/driver.lock; waiting for it"
    flock 9 &
    wait $!
  fi
}

# The shards merge would not take, as "3,5" (empty when all are complete). `trendline shards`
# checks its arguments too, so a mistyped pipeline or as-of stops the driver here (exit 2)
# before anything is submitted.
to_run() {
  local out
  if ! out=$("$trendline" shards "$pipeline" --input "$input" --output "$output" --as-of "$as_of" \
    --shards "$shards" --listing "$listing" --to-run 2>&1); then
    log error shards "$out" >&2
    return 2
  fi
  printf '%s\n' "$out"
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

# Waits until no job of this night is unfinished: $1 prints the unfinished ones, a word each
# (and fails when the scheduler cannot be asked: asked again, never taken for "nothing
# running"); past DEADLINE, $2 is given them to cancel.
wait_idle() {
  local unfinished errors
  errors=$(mktemp)
  while :; do
    # Only what the query prints on stdout is job ids: a scheduler's CLI that warns on stderr
    # (a deprecation notice) must not read as a job that never ends.
    if ! unfinished=$("$1" 2>"$errors"); then
      say "the scheduler could not be asked, asking again: $(head -c 2000 "$errors")"
      pause "$poll"
      continue
    fi
    [ -z "$unfinished" ] && break
    if ((SECONDS > ends)); then
      say "jobs still unfinished past DEADLINE (${deadline}s), cancelling them: $(tr "\n" " " <<<"$unfinished")"
      "$2" "$unfinished"
    fi
    pause "$poll"
  done
  rm -f "$errors"
}

# --- Slurm ------------------------------------------------------------------------------

slurm_setup() {
  logs=$(abs "${LOGS:-$root/logs/$as_of}")
  case $logs/ in "$output"/*)
    log error usage "LOGS '$logs' is inside the night's folder, which holds only what Trendline writes" >&2
    exit 2
    ;;
  esac
  case $logs in *[[:space:]%\"]*)
    log error usage "LOGS '$logs' holds a space, % or \", which #SBATCH --output cannot take" >&2
    exit 2
    ;;
  esac
  mkdir -p "$logs"
  # One driver per root: a second one (cron fired twice, a night re-run by hand while the next
  # runs) waits, so two nights never publish out of order or list one input twice at once.
  exec 9>"$root/logs/driver.lock"
  take_lock
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
exec $(q "$trendline") run $(q "$pipeline") --input $(q "$input") --output $(q "$output") --listing $(q "$listing") --shards $shards --as-of $as_of --log json
EOF
}

# Waits until none of the jobs of this night is queued or running. A query that fails (a
# slurmctld hiccup) is asked again, never taken for "nothing running".
slurm_unfinished() { squeue -h -n "$job_name" -o %i; }
slurm_cancel() { scancel -n "$job_name" || true; }
slurm_wait_idle() { wait_idle slurm_unfinished slurm_cancel; }

# Submits the shards in $1 ("0-15" or "3,5") and returns when they have ended.
slurm_run_shards() {
  local id
  local list=$1
  # The whole array as a range, as Slurm shows it compactly.
  if [ "$list" = "$(seq -s, 0 $((shards - 1)))" ]; then list="0-$((shards - 1))"; fi
  # shellcheck disable=SC2086 # SBATCH_OPTIONS is a list of options
  id=$(sbatch --parsable ${SBATCH_OPTIONS:-} --array="$list" "$task")
  id=${id%%;*}
  say "submitted shards $list as job $id (logs: $logs/shard-<I>-$as_of-job-$id.log)"
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
    # The input the tasks read: merge reads it again to refuse a shard whose users changed since.
    printf '%s merge --output %s --input %s --listing %s --log json' "$(q "$trendline")" "$(q "$output")" \
      "$(q "$input")" "$(q "$listing")"
    for ((i = 0; i < shards; i++)); do printf ' %s' "$(q "$output/shards/$i-of-$shards")"; done
    echo
    # Quoted by printf %q as every path here: a `'` in the output path broke this line, and a
    # good merge then read as exit 4.
    echo "echo \$? >$(q "$status")"
  } >"$merge"
  # shellcheck disable=SC2086
  id=$(sbatch --parsable ${SBATCH_OPTIONS:-} "$merge")
  id=${id%%;*}
  say "submitted the merge as job $id (log: $logs/merge-$as_of-job-$id.log)"
  slurm_wait_idle
  merge_log="$logs/merge-$as_of-job-$id.log"
  # On NFS the file a task wrote on another node may take a moment to show here.
  for _ in 1 2 3 4 5 6; do [ -f "$status" ] && break; pause 10; done
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
  run_id=$(printf '%s%04x' "$(date -u +%H%M%S)" "$RANDOM")
  jobs_this_night="app.kubernetes.io/name=trendline,trendline.dev/as-of=$as_of"
}

k() { kubectl "${kubectl_namespace[@]}" "$@"; }

# The merge's arguments after --output as the pods see them, as YAML flow items: the night's
# shard folders, "/data/out/nights/AS_OF/shards/0-of-N", ….
shard_folders() {
  local i separator=
  for ((i = 0; i < shards; i++)); do
    printf '%s"/data/out/nights/%s/shards/%s-of-%s"' "$separator" "$as_of" "$i" "$shards"
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

# Waits until no Job of this night is unfinished: neither Complete nor Failed, pods pending,
# running, or not schedulable at all. A query that fails (an API server hiccup) is asked
# again, never taken for "nothing running".
kubernetes_unfinished() {
  local listed
  listed=$(k get jobs -l "$jobs_this_night" \
    -o jsonpath='{range .items[*]}{.metadata.name} {.status.conditions[?(@.status=="True")].type}{"\n"}{end}') ||
    return 1
  awk 'NF && $0 !~ / (Complete|Failed)/ {print $1}' <<<"$listed"
}
# Foreground: the Job stays listed until its pods are gone, so the driver waits for them and a
# retry never writes a shard beside a pod still terminating.
kubernetes_cancel() {
  for job in $1; do k delete job "$job" --cascade=foreground --wait=false >/dev/null || true; done
}
kubernetes_wait_idle() { wait_idle kubernetes_unfinished kubernetes_cancel; }

kubernetes_run_shards() {
  local list=$1 attempt=$2 name
  # Every shard to run (a first night, or a night whose Job failed as a whole: an image that
  # would not pull, a volume not mounted): one Indexed Job. Otherwise a Job per shard.
  if [ "$list" = "$(seq -s, 0 $((shards - 1)))" ]; then
    name="trendline-$as_of-shards-a$attempt-$run_id"
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
  done || true
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

# --- AWS Batch --------------------------------------------------------------------------

aws_batch_setup() {
  : "${JOB_QUEUE:?JOB_QUEUE must name the AWS Batch job queue}"
  logs=$root/logs/$as_of
  mkdir -p "$logs"
  # Every job the drivers of this night submitted, a line each: "ID shards" for an array,
  # "ID shard-I" for a one-shard retry, "ID merge". The file is the night's record of its
  # jobs, which Batch lists only by queue and status.
  jobs_file=$logs/aws-batch-jobs
  touch "$jobs_file"
  exec 9>"$root/logs/driver.lock"
  take_lock
}

# Submits one job: aws_batch_submit NAME DEFINITION KIND PARAMETERS_JSON [ARRAY_SIZE].
aws_batch_submit() {
  local id array=()
  [ -n "${5:-}" ] && array=(--array-properties "size=$5")
  id=$(aws batch submit-job --job-name "$1" --job-queue "$JOB_QUEUE" --job-definition "$2" "${array[@]}" \
    --parameters "$4" --query jobId --output text)
  echo "$id $3" >>"$jobs_file"
  printf '%s\n' "$id"
}

# The job parameters every definition takes, as JSON: the paths, the as-of, and $1 $2 as the
# shard option and value.
aws_batch_parameters() {
  printf '{"pipeline":"%s","input":"%s","output":"%s","listing":"%s","asOf":"%s","shardOption":"%s","shardValue":"%s"}' \
    "$(json_text "$pipeline")" "$(json_text "$input")" "$(json_text "$output")" "$(json_text "$listing")" \
    "$as_of" "$1" "$2"
}

# The night's jobs not yet SUCCEEDED or FAILED, asked a hundred at a time (describe-jobs' most).
aws_batch_unfinished() {
  local listed
  [ -s "$jobs_file" ] || return 0
  listed=$(awk '{print $1}' "$jobs_file" | xargs -n 100 aws batch describe-jobs --query 'jobs[].[jobId,status]' \
    --output text --jobs) || return 1
  awk 'NF == 2 && $2 != "SUCCEEDED" && $2 != "FAILED" {print $1}' <<<"$listed"
}
aws_batch_cancel() {
  for job in $1; do
    aws batch terminate-job --job-id "$job" --reason "trendline driver: DEADLINE passed" >/dev/null || true
  done
}
aws_batch_wait_idle() { wait_idle aws_batch_unfinished aws_batch_cancel; }

aws_batch_run_shards() {
  local list=$1 id
  # Every shard to run: one array job, whose children read AWS_BATCH_JOB_ARRAY_INDEX
  # (Batch's arrays have at least 2 children; one shard is a plain job). Otherwise a plain
  # job per shard.
  if [ "$list" = "$(seq -s, 0 $((shards - 1)))" ] && [ "$shards" -ge 2 ]; then
    id=$(aws_batch_submit "trendline-$as_of-shards" "${SHARD_DEFINITION:-trendline-shard}" shards \
      "$(aws_batch_parameters --shards "$shards")" "$shards")
    say "submitted the array job $id ($shards shards)"
  else
    for i in ${list//,/ }; do
      id=$(aws_batch_submit "trendline-$as_of-shard-$i" "${SHARD_DEFINITION:-trendline-shard}" "shard-$i" \
        "$(aws_batch_parameters --shard "$i/$shards")")
      say "submitted shard $i as job $id"
    done
  fi
  aws_batch_wait_idle
}

# The log of every attempt of shard $1: the array's child ID:I, and the one-shard jobs.
aws_batch_shard_logs() {
  local id kind streams stream
  while read -r id kind; do
    case $kind in shards) id=$id:$1 ;; "shard-$1") ;; *) continue ;; esac
    streams=$(aws batch describe-jobs --jobs "$id" --query 'jobs[0].attempts[].container.logStreamName' \
      --output text 2>/dev/null) || continue
    for stream in $streams; do
      echo "aws logs get-log-events --log-group-name /aws/batch/job --log-stream-name $stream" \
        "--query 'events[].message' --output text"
    done
  done <"$jobs_file"
}

aws_batch_merge() {
  local id stream
  id=$(aws_batch_submit "trendline-$as_of-merge" "${MERGE_DEFINITION:-trendline-merge}" merge \
    "$(aws_batch_parameters --shards "$shards")")
  say "submitted the merge as job $id"
  aws_batch_wait_idle
  merge_code=$(aws batch describe-jobs --jobs "$id" --query 'jobs[0].container.exitCode' --output text)
  [ "$merge_code" = None ] && merge_code="none (the job was terminated or never ran)"
  stream=$(aws batch describe-jobs --jobs "$id" --query 'jobs[0].container.logStreamName' --output text)
  merge_log="aws logs get-log-events --log-group-name /aws/batch/job --log-stream-name $stream"
}

# --- The night ------------------------------------------------------------------------

"${scheduler}_setup"
"${scheduler}_wait_idle"
# The night's input, listed once: a driver run again for the same night keeps it.
if [ ! -e "$listing/_LISTING" ]; then
  rm -rf "$listing"
  listed=$("$trendline" list --pipeline "$pipeline" --input "$input" --shards "$shards" --listing "$listing" 2>&1) || {
    log error list "$listed" >&2
    exit 2
  }
  say "$listed"
else
  # A driver run again keeps the night's listing, so it must be of this input: one made from a
  # wrongly mounted folder is removed by the operator, not kept for ever.
  listed_input=$(sed -n 's/^input\t//p' "$listing/_LISTING")
  if [ "$listed_input" != "$input" ]; then
    log error list "the night's listing $listing is of the input '$listed_input', not '$input'; if that input was wrong, remove the listing and run the driver again" >&2
    exit 2
  fi
  say "the night's listing exists ($listing); exports that arrived since wait for the next night"
fi
list=$(to_run) || exit 2
# Every shard not complete, a line each with its reason, and a line for each of its logs;
# then exit 3.
report_incomplete() {
  log error incomplete "$1; nothing was merged, and $root/current still names the last night published"
  "$trendline" shards "$pipeline" --input "$input" --output "$output" --as-of "$as_of" --shards "$shards" \
    --listing "$listing" | sed '$d' | while read -r line; do
    shard=${line#shard }
    shard=${shard%% *}
    log error incomplete "${line#shard "$shard" }" "$shard"
    "${scheduler}_shard_logs" "${shard%%-of-*}" | while read -r command; do log info shardLog "$command" "$shard"; done
  done
  exit 3
}

attempt=0
while [ -n "$list" ]; do
  [ "$attempt" -gt "$retries" ] && report_incomplete "shards still not complete after $retries re-runs"
  ((SECONDS <= ends)) || report_incomplete "DEADLINE (${deadline}s) has passed; run the driver again for $as_of"

  [ "$attempt" -gt 0 ] && say "re-running shards $list (attempt $attempt of $retries)"
  "${scheduler}_run_shards" "$list" "$attempt"
  list=$(to_run) || exit 2
  attempt=$((attempt + 1))
done

# Publishes the merged night and exits with the merge's verdict ($1: 0 or 1), or 6 when the
# night cannot be published. Publishing again is harmless: a driver run again after a failed
# publish (say, a full disk) publishes the night it merged.
publish() {
  local published
  if ! published=$("$trendline" publish "$root" --night "$as_of" --keep "$keep" --log json 2>&1); then
    printf '%s\n' "$published"
    log error unpublished "night $as_of is merged in $output but publishing failed; $root/current names '$(readlink "$root/current" || echo nothing)'"
    exit 6
  fi
  printf '%s\n' "$published"
  exit "$1"
}

((SECONDS <= ends)) || {
  log error deadline "DEADLINE (${deadline}s) passed before the merge; run the driver again for $as_of to merge"
  exit 3
}
if merged_since_shards; then
  say "all $shards shards complete and merged already ($output/manifest.json)"
  merged_status && publish 0 || publish 1
fi
"${scheduler}_merge"
case $merge_code in
  0)
    say "merged $shards shards into $output; every user succeeded"
    publish 0
    ;;
  1)
    log warning merged "merged $shards shards into $output; some users failed on their data (named in $merge_log" \
      "and $output/manifest.json)"
    publish 1
    ;;
  2)
    log error merge "the merge refused the shards; its log: $merge_log"
    exit 2
    ;;
  *)
    log error merge "the merge failed (exit $merge_code); its log: $merge_log"
    exit 4
    ;;
esac
