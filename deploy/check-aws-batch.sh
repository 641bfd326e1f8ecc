#!/usr/bin/env bash
# Checks the AWS Batch driver and job definitions without an AWS account: builds trendline and
# runs the REAL driver, `deploy/nightly.sh aws-batch ...`, end to end against a fake `aws`
# (deploy/check/fake-aws.py: jobs and array children run as local processes, the job
# definitions' retryStrategy honoured) over four nights of one nightly root:
#   a. 2026-11-29: shard 2's first container is SIGKILLed; Batch's retry (attempts 2) runs it
#      again inside the array, the driver submits nothing more; merged, published;
#   b. 2026-11-30: two new users' exports arrive while it runs (written by shard 1's first
#      container) and shard 3 is killed on both attempts: the driver submits shard 3 alone
#      (--shard 3/4), the night completes from its listing (the arrivals not read) and is
#      published;
#   c. the driver again for 2026-11-30: nothing submitted, "merged already";
#   d. 2026-12-01: shard 0 is killed on every attempt: exit 3, each attempt's log named as a
#      command that shows it, and 2026-11-30 stays published;
#   e. 2026-12-02: the driver, waiting on a shard that hangs with POLL=30, is sent TERM: it
#      says so in a JSON line and exits 143 at once, not at its next look.
# Each merged night must equal a single-process `trendline run` of its listing, every line the
# driver prints must be a JSON log line, and the job definitions must say what they must.
#
#   bash deploy/check-aws-batch.sh
#
# Needs python3 and swift. Exits non-zero on the first failure.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
defs=$repo/deploy/aws-batch
tmp=$(mktemp -d)
cleanup() {
  local pid
  # The fake's job runners and containers, each its own process group.
  for pid in $(pgrep -f "fake-aws.py --run-job" 2>/dev/null); do kill -TERM -- "-$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "check-aws-batch: FAIL: $*" >&2; exit 1; }
started=$SECONDS

echo "== the job definitions"
python3 - "$defs" <<'PY'
import json, pathlib, sys
defs = pathlib.Path(sys.argv[1])
problems = []
for name, step in (("shard-job-definition.json", "run"), ("merge-job-definition.json", "merge")):
    d = json.loads((defs / name).read_text())
    c = d["containerProperties"]
    command = c["command"]
    if command[:2] != ["trendline", step]:
        problems.append(f"{name}: command {command[:2]}")
    # No shell (the image has none), every path a parameter, JSON logs.
    if any(w in ("sh", "bash", "-c") for w in command):
        problems.append(f"{name}: a shell in the command")
    for option in ("--output", "--input", "--listing"):
        if command[command.index(option) + 1] not in ("Ref::output", "Ref::input", "Ref::listing"):
            problems.append(f"{name}: {option} is not a parameter")
    if command[command.index("--log") + 1] != "json":
        problems.append(f"{name}: --log json")
    if not (c.get("readonlyRootFilesystem") is True and c.get("user") == "65532"):
        problems.append(f"{name}: read-only root and user 65532")
    rules = d["retryStrategy"]["evaluateOnExit"]
    if rules[:2] != [{"onExitCode": "1", "action": "EXIT"}, {"onExitCode": "2", "action": "EXIT"}] \
            or rules[-1] != {"onReason": "*", "action": "RETRY"} or d["retryStrategy"]["attempts"] != 2:
        problems.append(f"{name}: exit 1 and 2 are final, the rest retried once: {d['retryStrategy']}")
    if step == "merge" and command[-1] != "Ref::output":
        problems.append(f"{name}: the merge takes the night's own folder, which holds only its split")
if problems:
    sys.exit("\n".join(problems))
print("ok: commands without a shell, every path a parameter, exit 1 and 2 final, others retried once")
PY

echo "== build trendline"
(cd "$repo" && swift build -c release --product trendline 2>&1 | tail -1)
trendline=$repo/.build/release/trendline

c=$tmp/account
mkdir -p "$c/state" "$c/bin" "$c/containerbin" "$c/attempts" "$c/data/config"
"$trendline" generate --users 40 --seed 1 --output "$c/data/exports" >/dev/null
python3 - "$repo/Pipelines/overview.json" "$c/data/config/pipeline.json" "$c/data/exports" <<'PY'
import json, sys
pipeline = json.load(open(sys.argv[1]))
pipeline["source"]["input"] = sys.argv[3]
pipeline["output"]["formats"] = ["json"]
json.dump(pipeline, open(sys.argv[2], "w"), indent=2)
PY
printf '#!/bin/sh\nexec python3 "%s" "$@"\n' "$repo/deploy/check/fake-aws.py" >"$c/bin/aws"
# The containers' `trendline`: the image's binary behind a stand-in that logs the command line
# and kills the containers $c/kill names ("NIGHT INDEX ATTEMPTS": the first ATTEMPTS of that
# shard of that night), and writes the arrivals of night b.
cat >"$c/containerbin/trendline" <<EOF
#!/bin/bash
set -u
night= index=\${AWS_BATCH_JOB_ARRAY_INDEX:-merge}
args=("\$@")
for ((i = 0; i < \${#args[@]}; i++)); do
  [ "\${args[i]}" = --as-of ] && night=\${args[i + 1]}
  [ "\${args[i]}" = --shard ] && index=\${args[i + 1]%/*}
done
echo "\$night \$index \$*" >>"$c/container-commands.log"
[ "\$night" = 2026-12-02 ] && sleep 60
attempt=\$((\$(cat "$c/attempts/\$night-\$index" 2>/dev/null || echo 0) + 1))
echo "\$attempt" >"$c/attempts/\$night-\$index"
if [ "\$night \$index" = "2026-11-30 1" ] && [ ! -e "$c/arrived" ]; then
  : >"$c/arrived"
  cp "$c/data/exports/\$(ls "$c/data/exports" | grep -v users.csv | head -1)" "$c/data/exports/zz-arrived.csv"
  mkdir -p "$c/data/exports/arrived-user"
  cp "$c/data/exports/zz-arrived.csv" "$c/data/exports/arrived-user/export.csv"
fi
while read -r n i count; do
  if [ "\$n \$i" = "\$night \$index" ] && [ "\$attempt" -le "\$count" ]; then
    echo "check-aws-batch: SIGKILL of shard \$index of \$night, attempt \$attempt" >&2
    kill -KILL \$\$
  fi
done <"$c/kill"
exec "$trendline" "\$@"
EOF
chmod +x "$c/bin/aws" "$c/containerbin/trendline"
cat >"$c/kill" <<'EOF'
2026-11-29 2 1
2026-11-30 3 2
2026-12-01 0 99
EOF

# run_driver NIGHT: the driver for NIGHT, 4 shards; its output in $c/NIGHT.out, code in $code.
run_driver() {
  code=0
  (cd "$repo" && env -u DEADLINE PATH="$c/bin:$PATH" FAKE_AWS_STATE="$c/state" FAKE_AWS_DEFINITIONS="$defs" \
    FAKE_AWS_PATH="$c/containerbin:/usr/bin:/bin" AS_OF="$1" JOB_QUEUE=trendline-queue POLL=0 RETRIES=2 KEEP=3 \
    TRENDLINE="$trendline" bash deploy/nightly.sh aws-batch "$c/data/config/pipeline.json" "$c/data/exports" \
    "$c/data/out" 4) >"$c/$1.out" 2>&1 || code=$?
  cut -c1-220 "$c/$1.out" | sed 's/^/  | /'
  python3 -c 'import json, sys
for line in open(sys.argv[1]):
    entry = json.loads(line)
    assert {"ts", "level", "event", "asOf", "command"} <= set(entry), line' "$c/$1.out" ||
    fail "a line of the driver for $1 is not a JSON log line"
}

# submitted NIGHT: the jobs the drivers of NIGHT submitted, "KIND" a line.
submitted() { awk '{print $2}' "$c/data/out/logs/$1/aws-batch-jobs" | tr '\n' ' '; }

# expect_published NIGHT: merged, published, and what one process makes of its listing.
expect_published() {
  local out=$c/data/out/nights/$1
  [ -f "$out/_SUCCESS" ] || fail "night $1 has no _SUCCESS"
  [ "$(readlink "$c/data/out/current")" = "nights/$1" ] || fail "current is not nights/$1"
  grep -q "^$1,$1," "$c/data/out/nights.csv" || fail "nights.csv has no row for $1"
  rm -rf "$c/single"
  "$trendline" run "$c/data/config/pipeline.json" --output "$c/single" --as-of "$1" \
    --listing "$c/data/out/listings/$1" --quiet
  diff -r -x manifest.json -x shards "$c/single" "$out" >/dev/null || fail "night $1 differs from one process's"
  echo "  ok: night $1 merged, published, equal to one process's run of its listing"
}

echo "== a. shard 2's first container is killed: Batch retries it inside the array"
run_driver 2026-11-29
[ "$code" -eq 0 ] || fail "the driver exited $code, not 0"
[ "$(submitted 2026-11-29)" = "shards merge " ] || fail "submitted: $(submitted 2026-11-29)"
[ "$(cat "$c/attempts/2026-11-29-2")" = 2 ] || fail "shard 2 ran $(cat "$c/attempts/2026-11-29-2") times, not 2"
expect_published 2026-11-29

echo "== b. exports arrive during the night; shard 3 is killed on both attempts: submitted alone"
run_driver 2026-11-30
[ "$code" -eq 0 ] || fail "the driver exited $code, not 0"
[ "$(submitted 2026-11-30)" = "shards shard-3 merge " ] || fail "submitted: $(submitted 2026-11-30)"
grep -q -- "2026-11-30 3 run .*--shard 3/4" "$c/container-commands.log" || fail "shard 3 was not run with --shard 3/4"
[ -e "$c/data/exports/arrived-user/export.csv" ] || fail "no export arrived during the night"
[ ! -e "$c/data/out/nights/2026-11-30/users/arrived-user" ] && [ ! -e "$c/data/out/nights/2026-11-30/users/zz-arrived" ] ||
  fail "the night read exports that arrived during it"
expect_published 2026-11-30

echo "== c. the driver again for 2026-11-30: nothing submitted, merged already"
run_driver 2026-11-30
[ "$code" -eq 0 ] || fail "the driver exited $code, not 0"
[ "$(submitted 2026-11-30)" = "shards shard-3 merge " ] || fail "the second driver submitted: $(submitted 2026-11-30)"
grep -q "all 4 shards complete and merged already" "$c/2026-11-30.out" || fail "the driver did not say merged already"

echo "== d. shard 0 killed on every attempt: exit 3, its logs named, the last night stays published"
run_driver 2026-12-01
[ "$code" -eq 3 ] || fail "the driver exited $code, not 3"
[ "$(readlink "$c/data/out/current")" = nights/2026-11-30 ] || fail "current moved off nights/2026-11-30"
python3 -c 'import json, sys
for line in open(sys.argv[1]):
    entry = json.loads(line)
    if entry["event"] == "shardLog" and entry["shard"] == "0-of-4":
        print(entry["message"])' "$c/2026-12-01.out" >"$c/logs.txt"
[ "$(wc -l <"$c/logs.txt")" -eq 6 ] || fail "the driver named $(wc -l <"$c/logs.txt") logs of shard 0, not 6"
while read -r command; do
  # As an operator would paste it into a shell.
  (export PATH="$c/bin:$PATH" FAKE_AWS_STATE="$c/state" && eval "$command") | grep -q "SIGKILL of shard 0 of 2026-12-01" ||
    fail "'$command' does not show a log of shard 0"
done <"$c/logs.txt"
echo "  ok: exit 3; 6 attempts' logs named, each shows its container's log; current still nights/2026-11-30"

echo "== e. TERM while the driver waits (POLL=30): a stopped line, exit 143, at once"
(cd "$repo" && exec env PATH="$c/bin:$PATH" FAKE_AWS_STATE="$c/state" FAKE_AWS_DEFINITIONS="$defs" \
  FAKE_AWS_PATH="$c/containerbin:/usr/bin:/bin" AS_OF=2026-12-02 JOB_QUEUE=trendline-queue POLL=30 \
  TRENDLINE="$trendline" bash deploy/nightly.sh aws-batch "$c/data/config/pipeline.json" "$c/data/exports" \
  "$c/data/out" 4) >"$c/term.out" 2>&1 &
driver=$!
for _ in $(seq 1 100); do grep -q "submitted the array job" "$c/term.out" 2>/dev/null && break; sleep 0.1; done
sleep 1
sent=$SECONDS
kill -TERM "$driver"
code=0
wait "$driver" || code=$?
took=$((SECONDS - sent))
sed 's/^/  | /' "$c/term.out" | cut -c1-220
[ "$code" -eq 143 ] || fail "the driver stopped by TERM exited $code, not 143"
[ "$took" -le 3 ] || fail "the driver took ${took}s to stop after TERM"
grep -q '"event":"stopped","level":"error","message":"the driver was stopped by TERM' "$c/term.out" ||
  fail "no stopped line"
echo "  ok: exit 143 ${took}s after TERM, with its line"

echo "check-aws-batch: all checks passed in $((SECONDS - started))s"
