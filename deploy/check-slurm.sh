#!/usr/bin/env bash
# Trendline on a real, local, single-node Slurm cluster: start one, check what
# deploy/nightly.sh relies on, run a night with it, stop the cluster again.
#
#   bash deploy/check-slurm.sh          (as root: it starts munged, slurmctld and slurmd)
#
# Not part of `swift test`: run it by hand after changing the Slurm scripts. It needs
# Debian's slurm-wlm and munge (Slurm 22.05), and installs them with apt when slurmctld is
# missing. Everything it starts lives in one temporary folder: its own munged socket and key
# copy, slurm.conf, the daemons' state, spool and logs, and the jobs' files. On exit, however
# it exits, it cancels the jobs, stops slurmd, slurmctld and munged and removes the folder
# (KEEP=1 keeps the folder and prints where it is). A system Slurm or munge on the machine
# is not touched: the daemons here use their own ports (SLURMCTLD_PORT, SLURMD_PORT, by
# default 16817 and 16818) and their own munge socket, and talk over 127.0.0.1.
#
#   1. the cluster: munged, slurmctld, slurmd, until sinfo shows the node idle;
#   2. job arrays: --wrap and script arrays, --array=2 alone, exit codes of sbatch --wait,
#      which tasks failed (without accounting), afterok of a failed array, bash -e drivers;
#   3. the driver: a release build of trendline, a generated corpus of 200
#      users, and a night of 4 shards through `deploy/nightly.sh slurm` whose shard 2 is
#      killed on its first attempt and during which two new users' exports arrive (written
#      by shard 2's first task), checked to be retried once, to leave nothing queued, to
#      merge into output byte-identical to one process's of the night's listing (the
#      arrivals not read) and to be published; then a night whose shard 3 fails on every
#      attempt (exit 3), which leaves the first night published.
#
# Prints PASS and FAIL lines; exits 0 when every check passed, 1 when one failed, 2 when
# the cluster could not be started.
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ctld_port=${SLURMCTLD_PORT:-16817}
slurmd_port=${SLURMD_PORT:-16818}
# Seconds to wait for one sbatch --wait, for the cluster to come up, for it to stop.
job_timeout=${JOB_TIMEOUT:-180}
start_timeout=${START_TIMEOUT:-60}

failures=0
passes=0
pass() { passes=$((passes + 1)); echo "PASS: $*"; }
fail() { failures=$((failures + 1)); echo "FAIL: $*"; }
note() { echo "  $*"; }
section() { echo; echo "== $*"; }

if [ "$(id -u)" != 0 ]; then
  echo "check-slurm: run as root (it starts munged, slurmctld and slurmd)" >&2
  exit 2
fi

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null \
  || ! command -v munged >/dev/null; then
  echo "slurmctld, slurmd or munged is missing: installing slurm-wlm and munge with apt"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq slurm-wlm munge >/dev/null \
    || { echo "check-slurm: apt-get install slurm-wlm munge failed" >&2; exit 2; }
fi
echo "$(slurmctld -V), munge $(munged --version 2>&1 | head -1 | awk '{print $1}')"

if [ ! -s /etc/munge/munge.key ]; then
  echo "no /etc/munge/munge.key: creating one"
  mkdir -p /etc/munge
  if command -v mungekey >/dev/null; then
    mungekey --create --keyfile=/etc/munge/munge.key
  else
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
  fi
  chmod 0400 /etc/munge/munge.key
  id munge >/dev/null 2>&1 && chown munge:munge /etc/munge/munge.key
fi

for port in "$ctld_port" "$slurmd_port"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "check-slurm: port $port on 127.0.0.1 is in use (set SLURMCTLD_PORT / SLURMD_PORT)" >&2
    exit 2
  fi
done

T=$(mktemp -d /tmp/trendline-slurm.XXXXXX)
chmod 0755 "$T"
mkdir -p "$T/munge" "$T/log" "$T/state" "$T/spool" "$T/jobs"
export SLURM_CONF=$T/slurm.conf
munged_pid='' ctld_pid='' slurmd_pid=''

show_logs() {
  local f
  for f in "$T"/log/*; do
    [ -f "$f" ] || continue
    echo "---- ${f#"$T"/} (last 40 lines)"
    tail -n 40 "$f"
  done
  echo "----"
}

# Processes other than this shell with their working folder or an open file in $T: the job
# steps (slurmstepd) and job processes a stopped slurmd leaves behind, an sbatch --wait of
# this script's still waiting.
processes_in_T() {
  local p pid
  for p in /proc/[0-9]*; do
    pid=${p#/proc/}
    [ "$pid" = $$ ] && continue
    [[ "$({ readlink "$p/cwd"; ls -l "$p/fd"; } 2>/dev/null)" == *"$T"* ]] && echo "$pid"
  done
}

# Stops a process by its id: TERM, then KILL after a few seconds.
stop_pid() {
  local pid=$1 name=$2 i
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null
  for i in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  if kill -0 "$pid" 2>/dev/null; then
    echo "  $name ($pid) ignored TERM: KILL"
    kill -KILL "$pid" 2>/dev/null
  fi
  wait "$pid" 2>/dev/null
  return 0
}

cleanup() {
  local rc=$? i pids
  set +e
  trap - EXIT INT TERM HUP
  cd / || true
  echo
  echo "== stopping the cluster"
  if [ -n "$ctld_pid" ] && kill -0 "$ctld_pid" 2>/dev/null; then
    scancel --user="$(id -un)" 2>/dev/null
    for i in $(seq 1 50); do
      [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
      sleep 0.2
    done
  fi
  stop_pid "$slurmd_pid" slurmd
  stop_pid "$ctld_pid" slurmctld
  stop_pid "$munged_pid" munged
  pids=$(processes_in_T)
  if [ -n "$pids" ]; then
    echo "  left behind in $T, killing: $(echo $pids)"
    for pid in $pids; do kill -KILL "$pid" 2>/dev/null; done
    sleep 0.5
  fi
  pids=$(processes_in_T)
  [ -n "$pids" ] && echo "  still running: $(echo $pids)"
  if [ "${KEEP:-0}" = 1 ]; then
    echo "  kept $T"
  else
    rm -rf "$T"
  fi
  echo "  stopped"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# Exits with the daemons' logs (the EXIT trap stops what started).
die() {
  echo "check-slurm: $*" >&2
  show_logs >&2
  exit 2
}

# Waits up to $1 seconds for the command after it to succeed.
wait_until() {
  local seconds=$1 deadline
  shift
  deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -ge "$deadline" ] && return 1
    sleep 0.5
  done
}

# ---------------------------------------------------------------------------------------------
section "1. a single-node cluster in $T"

# munged refuses a key not owned by the user it runs as (Debian's is munge's): a root-owned
# copy for this munged, on its own socket.
install -m 0400 -o root -g root /etc/munge/munge.key "$T/munge/munge.key"
munged --foreground --socket="$T/munge/munge.socket" --key-file="$T/munge/munge.key" \
  --log-file="$T/log/munged.log" --pid-file="$T/munge/munged.pid" \
  --seed-file="$T/munge/munged.seed" >"$T/log/munged.out" 2>&1 &
munged_pid=$!
munge_works() {
  kill -0 "$munged_pid" 2>/dev/null || return 0
  munge -n -S "$T/munge/munge.socket" | unmunge -S "$T/munge/munge.socket"
}
wait_until "$start_timeout" munge_works && kill -0 "$munged_pid" 2>/dev/null \
  || die "munged did not start"
echo "munged ($munged_pid) on $T/munge/munge.socket"

host=$(hostname -s)
# The node as slurmd sees it (CPUs, boards, sockets, cores, threads), with RealMemory a bit
# under the real one so slurmd never finds less than configured.
hardware=$(slurmd -C 2>/dev/null | head -1)
real_mb=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$hardware")
[ -n "$real_mb" ] || real_mb=$(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo)
layout=$(tr ' ' '\n' <<<"$hardware" \
  | grep -E '^(CPUs|Boards|SocketsPerBoard|CoresPerSocket|ThreadsPerCore)=' | tr '\n' ' ')
[ -n "$layout" ] || layout="CPUs=$(nproc --all) "
cpus=$(sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' <<<"$layout")
memory_mb=$((real_mb * 95 / 100))

cat >"$T/slurm.conf" <<EOF
# Written by deploy/check-slurm.sh: a one-node cluster on 127.0.0.1, removed on exit.
ClusterName=local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/munge.socket
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups: processes tracked by their parent ids, no task binding.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=256
SchedulerType=sched/backfill
# No slurmdbd: no accounting, so no sacct. Finished jobs stay in slurmctld's memory for
# MinJobAge seconds (scontrol show job, squeue -t all) and are appended to the jobcomp file.
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$T/log/jobcomp.txt
MinJobAge=300
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=$host NodeAddr=127.0.0.1 NodeHostname=$host ${layout}RealMemory=$memory_mb State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
cat >"$T/cgroup.conf" <<'EOF'
# Unused with proctrack/linuxproc and task/none; here so no daemon looks for /etc/slurm's.
CgroupAutomount=no
ConstrainCores=no
ConstrainRAMSpace=no
ConstrainDevices=no
EOF
echo "slurm.conf: node $host, $cpus CPUs ($layout), RealMemory=$memory_mb of $real_mb MB"

slurmctld -D -f "$T/slurm.conf" >"$T/log/slurmctld.out" 2>&1 &
ctld_pid=$!
ctld_up() { ! kill -0 "$ctld_pid" 2>/dev/null || scontrol ping; }
wait_until "$start_timeout" ctld_up || die "slurmctld did not answer scontrol ping"
kill -0 "$ctld_pid" 2>/dev/null || die "slurmctld exited"
slurmd -D -N "$host" -f "$T/slurm.conf" >"$T/log/slurmd.out" 2>&1 &
slurmd_pid=$!
node_idle() {
  kill -0 "$slurmd_pid" 2>/dev/null && kill -0 "$ctld_pid" 2>/dev/null \
    && [ "$(sinfo -h -N -n "$host" -o %T)" = idle ]
}
if ! wait_until "$start_timeout" node_idle; then
  sinfo -N -l 2>&1
  die "the node did not become idle in ${start_timeout}s"
fi
sinfo -N -o '%N %T %c %m %P'
pass "cluster up: slurmctld ($ctld_pid), slurmd ($slurmd_pid), node $host idle"

# ---------------------------------------------------------------------------------------------
section "2. job arrays"
J=$T/jobs
cd "$J" || die "no $J"

# Runs sbatch with a timeout; its exit code is the function's, its output in $J/$1.out.
submit() {
  local name=$1
  shift
  timeout "$job_timeout" sbatch --chdir="$J" "$@" >"$J/$name.sbatch" 2>&1
}

# 2a. --wrap with an array: the command is quoted for the task, so each task expands its own
# SLURM_ARRAY_TASK_ID.
submit wrap --wait --parsable --array=0-3 --job-name=wrap --output="$J/wrap-%a.out" \
  --wrap 'echo task=$SLURM_ARRAY_TASK_ID'
rc=$?
got=$(for i in 0 1 2 3; do cat "$J/wrap-$i.out" 2>/dev/null; done | tr '\n' ' ')
if [ "$rc" = 0 ] && [ "$got" = "task=0 task=1 task=2 task=3 " ]; then
  pass "sbatch --wait --array=0-3 --wrap: exit 0, tasks printed: $got"
else
  fail "sbatch --wait --array=0-3 --wrap: exit $rc, tasks printed: '$got'"
  cat "$J/wrap.sbatch"
fi

# 2b. One index of a script array, and the submitter's environment in the job.
cat >"$J/task.sh" <<'EOF'
#!/usr/bin/env bash
echo "SLURM_ARRAY_TASK_ID=$SLURM_ARRAY_TASK_ID"
echo "SLURM_ARRAY_TASK_COUNT=${SLURM_ARRAY_TASK_COUNT:-unset}"
echo "CHECK_SLURM_MARK=${CHECK_SLURM_MARK:-unset}"
echo "PATH=$PATH"
EOF
CHECK_SLURM_MARK=from-the-submitter PATH="$J/bin-first:$PATH" \
  submit one --wait --parsable --array=2 --job-name=one --output="$J/one-%a.out" "$J/task.sh"
rc=$?
if [ "$rc" = 0 ] && grep -qx 'SLURM_ARRAY_TASK_ID=2' "$J/one-2.out" 2>/dev/null; then
  pass "sbatch --wait --array=2 task.sh: exit 0, the task saw SLURM_ARRAY_TASK_ID=2" \
    "($(grep COUNT "$J/one-2.out"))"
else
  fail "sbatch --wait --array=2 task.sh: exit $rc; $(cat "$J/one-2.out" "$J/one.sbatch" 2>&1)"
fi
if grep -qx 'CHECK_SLURM_MARK=from-the-submitter' "$J/one-2.out" 2>/dev/null \
  && grep -qx "PATH=$J/bin-first:$PATH" "$J/one-2.out"; then
  pass "a job runs with the submitter's environment (a variable and PATH, --export=ALL)"
else
  fail "the job's environment is not the submitter's: $(cat "$J/one-2.out" 2>&1)"
fi

# 2c. A failing array: which exit code sbatch --wait returns, what the cluster keeps about
# each task, and what becomes of jobs that depend on it. Tasks: 0 and 4 succeed, 1 exits 3,
# 2 is killed by SIGKILL (its batch shell), 3 exits 137 (a child killed by SIGKILL, the code
# passed on as a task script does).
cat >"$J/fail.sh" <<'EOF'
#!/usr/bin/env bash
sleep 2
case $SLURM_ARRAY_TASK_ID in
  1) exit 3 ;;
  2) kill -KILL $$ ;;
  3) bash -c 'kill -KILL $$'; exit $? ;;
esac
echo "task $SLURM_ARRAY_TASK_ID ok"
EOF
timeout "$job_timeout" sbatch --chdir="$J" --wait --parsable --array=0-4 --job-name=fail \
  --output="$J/fail-%a.out" "$J/fail.sh" >"$J/fail.sbatch" 2>&1 &
wait_pid=$!
wait_until 30 grep -qE '^[0-9]+' "$J/fail.sbatch" || die "the failing array was not submitted"
array=$(grep -oE '^[0-9]+' "$J/fail.sbatch" | head -1)
dep_ok=$(sbatch --parsable --dependency=afterok:"$array" --job-name=after-ok --wrap true)
dep_kill=$(sbatch --parsable --dependency=afterok:"$array" --kill-on-invalid-dep=yes \
  --job-name=after-ok-kill --wrap true)
dep_notok=$(sbatch --parsable --dependency=afternotok:"$array" --job-name=after-notok \
  --output="$J/after-notok.out" --wrap 'echo ran')
dep_any=$(sbatch --parsable --dependency=afterany:"$array" --job-name=after-any \
  --output="$J/after-any.out" --wrap 'echo ran')
wait "$wait_pid"
rc=$?
note "sbatch --wait --array=0-4 (tasks exit 0, 3, SIGKILL, 137, 0) returned $rc"
if [ "$rc" != 0 ]; then
  pass "sbatch --wait returns nonzero when array tasks fail (here $rc)"
else
  fail "sbatch --wait returned 0 for an array with failed tasks"
fi
# Without accounting, a finished array's tasks are in slurmctld's memory for MinJobAge
# seconds: scontrol show job <array id> prints one record per task.
scontrol -o show job "$array" >"$J/fail.scontrol" 2>&1
note "scontrol -o show job $array, per task:"
while read -r line; do
  field() { grep -oE "(^| )$1=[^ ]*" <<<"$line" | head -1 | sed 's/^ //'; }
  note "  $(field JobId) $(field ArrayTaskId) $(field JobState) $(field Reason) $(field ExitCode)"
done <"$J/fail.scontrol"
# A task that just ended may still be COMPLETING, so the failed ones are those that say so.
failed_tasks=$(grep 'JobState=FAILED' "$J/fail.scontrol" \
  | grep -oE 'ArrayTaskId=[0-9]+' | cut -d= -f2 | sort -n | tr '\n' ' ')
if [ "$failed_tasks" = "1 2 3 " ]; then
  pass "the failed tasks, from scontrol show job without accounting: $failed_tasks"
else
  fail "the failed tasks from scontrol show job are '$failed_tasks', expected 1 2 3"
  cat "$J/fail.scontrol"
fi
if [ -z "$(squeue -h -j "$array" 2>/dev/null)" ]; then
  note "squeue -j $array: nothing (the array ended); squeue -t all -j $array:"
  squeue -t all -j "$array" -o '%i %T %r' 2>&1 | sed 's/^/      /'
fi
note "jobcomp/filetxt lines of the array:"
grep -E "ArrayJobId=$array " "$T/log/jobcomp.txt" 2>/dev/null | while read -r line; do
  note "    $(grep -oE '(^| )(JobId|ArrayTaskId|JobState|ExitCode|DerivedExitCode)=[^ ]*' <<<"$line" \
    | tr -d '\n')"
done

job_finished() {
  local state
  state=$(scontrol -o show job "$1" 2>/dev/null | grep -oE 'JobState=[A-Z_]+' | head -1)
  [ -n "$state" ] && [ "$state" != JobState=PENDING ] && [ "$state" != JobState=RUNNING ] \
    && [ "$state" != JobState=CONFIGURING ] && [ "$state" != JobState=COMPLETING ]
}
wait_until 60 job_finished "$dep_any"
wait_until 60 job_finished "$dep_notok"
wait_until 10 job_finished "$dep_kill"
sleep 2
state_of() { squeue -h -j "$1" -o '%T %r' 2>/dev/null || true; }
show_state() {
  scontrol -o show job "$1" 2>/dev/null | grep -oE '(JobState|Reason|ExitCode)=[^ ]*' | tr '\n' ' '
}
ok_state=$(state_of "$dep_ok")
if [ "$ok_state" = "PENDING DependencyNeverSatisfied" ]; then
  pass "afterok of the failed array stays pending: $ok_state (scancel it)"
else
  fail "afterok of the failed array: '$ok_state' ($(show_state "$dep_ok"))"
fi
note "afterok with --kill-on-invalid-dep=yes: $(show_state "$dep_kill")"
note "afternotok: $(show_state "$dep_notok") output: $(cat "$J/after-notok.out" 2>/dev/null)"
note "afterany:   $(show_state "$dep_any") output: $(cat "$J/after-any.out" 2>/dev/null)"
scancel "$dep_ok" 2>/dev/null

# 2d. The exit code of sbatch --wait for an array whose only failure is a task killed by a
# signal (as Slurm's own time and memory limits do).
cat >"$J/signal.sh" <<'EOF'
#!/usr/bin/env bash
[ "$SLURM_ARRAY_TASK_ID" = 1 ] && kill -KILL $$
exit 0
EOF
submit signal --wait --parsable --array=0-1 --job-name=signal --output=/dev/null "$J/signal.sh"
rc=$?
if [ "$rc" != 0 ]; then
  pass "sbatch --wait returns nonzero ($rc) when the only failed task was killed by a signal"
else
  fail "sbatch --wait returned 0 for an array whose task 1 was killed by SIGKILL"
fi

# 2e. sbatch --wait in a driver under bash -e: a failing array stops the driver at once.
cat >"$J/driver.sh" <<'EOF'
set -e
sbatch --wait --parsable --array=0-1 --output=/dev/null --wrap true
echo "after the succeeding array"
sbatch --wait --parsable --array=0-1 --output=/dev/null --wrap 'exit $((SLURM_ARRAY_TASK_ID * 4))'
echo "after the failing array"
EOF
start=$SECONDS
(cd "$J" && timeout "$job_timeout" bash -e "$J/driver.sh") >"$J/driver.out" 2>&1
rc=$?
if [ "$rc" = 4 ] && grep -q 'after the succeeding array' "$J/driver.out" \
  && ! grep -q 'after the failing array' "$J/driver.out"; then
  pass "sbatch --wait under bash -e: goes on after a succeeding array, stops (exit $rc," \
    "the highest task exit code) at a failing one; $((SECONDS - start))s for both"
else
  fail "sbatch --wait under bash -e: exit $rc; $(tr '\n' ' ' <"$J/driver.out")"
fi

# ---------------------------------------------------------------------------------------------
section "3. the nightly run: 4 shards on Slurm, shard 2 killed once and retried, exports arriving"
{
  N=$T/nightly
  mkdir -p "$N/bin"
  echo "building trendline (swift build -c release --static-swift-stdlib --product trendline)"
  if ! (cd "$repo" && swift build -c release --static-swift-stdlib --product trendline) \
    >"$T/log/build.log" 2>&1; then
    tail -30 "$T/log/build.log"
    fail "swift build"
  fi
  real_bin=$repo/.build/release/trendline
  if [ -x "$real_bin" ] && "$real_bin" generate --users 200 --seed 7 --output "$N/in" >/dev/null \
    && python3 - "$repo/Pipelines/overview.json" "$N/pipeline.json" "$N/in" <<'PY'
import json, sys
pipeline = json.load(open(sys.argv[1]))
pipeline["source"]["input"] = sys.argv[3]  # absolute: a pipeline's paths are relative to it
pipeline["output"]["formats"] = ["json"]
json.dump(pipeline, open(sys.argv[2], "w"), indent=2)
PY
  then
    # First on the driver's and so the jobs' PATH: a trendline whose 'run' of shard 2 of 4,
    # on its first attempt, runs nothing and kills itself with SIGKILL (137, as the kernel's
    # OOM killer would); every shard run is counted in attempts.
    cat >"$N/bin/trendline" <<EOF
#!/usr/bin/env bash
shards='' previous=''
[ "\${1:-}" = run ] || exec '$real_bin' "\$@"
for arg in "\$@"; do
  [ "\$previous" = --shards ] && shards=\$arg
  case \$arg in --shards=*) shards=\${arg#--shards=} ;; esac
  previous=\$arg
done
if [ "\$shards" = 4 ]; then
  echo "\${SLURM_ARRAY_TASK_ID:-none} \${SLURM_JOB_ID:-none}" >>'$N/attempts'
  if [ "\${SLURM_ARRAY_TASK_ID:-}" = 2 ] && [ ! -e '$N/failed-once' ]; then
    : >'$N/failed-once'
    # Exports arrive while the night runs: a new user, and a new user's folder.
    first=\$(ls '$N/in' | grep -v users.csv | head -1)
    cp "$N/in/\$first" '$N/in/zz-arrived.csv'
    mkdir -p '$N/in/arrived-user' && cp "$N/in/\$first" '$N/in/arrived-user/export.csv'
    kill -KILL \$\$
  fi
  if [ "\${SLURM_ARRAY_TASK_ID:-}" = 3 ] && [ -e '$N/fail-shard-3' ]; then kill -KILL \$\$; fi
fi
exec '$real_bin' "\$@"
EOF
    chmod +x "$N/bin/trendline"
    echo "bash deploy/nightly.sh slurm $N/pipeline.json $N/in $N/out 4 (AS_OF=2026-11-30 RETRIES=2)"
    night=$N/out/nights/2026-11-30
    start=$SECONDS
    (cd "$N" && PATH="$N/bin:$(dirname "$real_bin"):$PATH" AS_OF=2026-11-30 RETRIES=2 \
      POLL=${POLL:-2} timeout 1200 bash "$repo/deploy/nightly.sh" slurm "$N/pipeline.json" "$N/in" "$N/out" 4) \
      >"$N/nightly.out" 2>&1
    rc=$?
    sed 's/^/  | /' "$N/nightly.out" | tail -40
    if [ "$rc" = 0 ]; then
      pass "nightly.sh slurm exited 0 ($((SECONDS - start))s)"
    else
      fail "nightly.sh slurm exited $rc ($((SECONDS - start))s)"
    fi
    left=$(squeue -h -n trendline-2026-11-30 -o '%i %T %r' 2>/dev/null)
    if [ -z "$left" ]; then
      pass "the driver left no job of the night queued or running"
    else
      fail "jobs of the night left in the queue: $left"
    fi
    note "the night's jobs (jobcomp):"
    grep -E 'Name=trendline-2026-11-30 ' "$T/log/jobcomp.txt" 2>/dev/null | while read -r line; do
      note "  $(grep -oE '(^| )(JobId|ArrayTaskId|JobState|ExitCode)=[^ ]*' <<<"$line" | tr -d '\n')"
    done
    counts=$(for i in 0 1 2 3; do
      echo -n "$i:$(awk -v i="$i" '$1 == i' "$N/attempts" 2>/dev/null | wc -l) "
    done)
    if [ "$counts" = "0:1 1:1 2:2 3:1 " ]; then
      pass "shard runs (from the wrapper's marks): $counts"
    else
      fail "shard runs (from the wrapper's marks): $counts; expected 0:1 1:1 2:2 3:1"
    fi
    # nightly.sh's task logs: shard-<task>-<as-of>-job-<array job>.log, one per attempt.
    logs=$(cd "$N/out/logs/2026-11-30" 2>/dev/null && ls shard-*-job-*.log 2>/dev/null | tr '\n' ' ')
    log_counts=$(for i in 0 1 2 3; do
      echo -n "$i:$(cd "$N/out/logs/2026-11-30" 2>/dev/null && ls shard-"$i"-*job-*.log 2>/dev/null | wc -l) "
    done)
    if [ "$log_counts" = "0:1 1:1 2:2 3:1 " ]; then
      pass "shard logs in out/logs/2026-11-30: $logs"
    else
      fail "shard logs in out/logs/2026-11-30: '$logs' ($log_counts; expected 0:1 1:1 2:2 3:1)"
    fi
    if [ -e "$N/in/arrived-user/export.csv" ] && [ ! -e "$night/users/arrived-user" ] \
      && [ ! -e "$night/users/zz-arrived" ] && [ "$(readlink "$N/out/current")" = nights/2026-11-30 ]; then
      pass "the exports that arrived during the night waited; the night is published (current)"
    else
      fail "arrivals or publishing: current '$(readlink "$N/out/current")', $(ls "$night/users" 2>&1 | tail -2)"
    fi
    if python3 -c 'import json, sys
for line in open(sys.argv[1]):
    entry = json.loads(line)
    assert {"ts", "level", "event", "asOf", "command"} <= set(entry), line' "$N/nightly.out"; then
      pass "every line the driver printed is a JSON log line"
    else
      fail "a line of the driver is not a JSON log line"
    fi
    if "$real_bin" run "$N/pipeline.json" --output "$N/single" --as-of 2026-11-30 --quiet \
      --listing "$N/out/listings/2026-11-30"; then
      if diff -r -x manifest.json -x shards -x .trendline-output "$N/single" "$night" \
        >"$N/diff.out" 2>&1; then
        pass "the merged output is byte-identical to one process's" \
          "($(find "$N/single" -type f | wc -l) files)"
      else
        fail "the merged output differs from one process's:"
        head -20 "$N/diff.out"
      fi
      if python3 - "$N/single/manifest.json" "$night/manifest.json" <<'PY'; then
import json, sys
single, merged = (json.load(open(p)) for p in sys.argv[1:3])
if single["totals"] != merged["totals"]:
    sys.exit(f"totals differ: one process {single['totals']}, merged {merged['totals']}")
print(f"  totals: {merged['totals']}")
PY
        pass "the merged manifest's totals are one process's"
      else
        fail "the manifests' totals"
      fi
    else
      fail "trendline run in one process"
    fi
    # The next night loses shard 3 on every attempt: it is not merged, and the night before
    # stays published.
    : >"$N/fail-shard-3"
    (cd "$N" && PATH="$N/bin:$(dirname "$real_bin"):$PATH" AS_OF=2026-12-01 RETRIES=1 \
      POLL=${POLL:-2} timeout 1200 bash "$repo/deploy/nightly.sh" slurm "$N/pipeline.json" "$N/in" "$N/out" 4) \
      >"$N/failed-night.out" 2>&1
    rc=$?
    tail -4 "$N/failed-night.out" | cut -c1-200 | sed 's/^/  | /'
    if [ "$rc" = 3 ] && [ "$(readlink "$N/out/current")" = nights/2026-11-30 ] \
      && [ -f "$N/out/nights/2026-11-30/_SUCCESS" ] && [ ! -e "$N/out/nights/2026-12-01/_SUCCESS" ]; then
      pass "a night whose shard 3 always fails exits 3; current still names nights/2026-11-30"
    else
      fail "the failed night: exit $rc, current '$(readlink "$N/out/current")'"
    fi
  else
    fail "could not build trendline, generate the corpus or write the pipeline"
  fi
}

section "result"
echo "$passes passed, $failures failed"
[ "$failures" = 0 ]
