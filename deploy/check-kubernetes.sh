#!/usr/bin/env bash
# Checks deploy/kubernetes/ and the driver that uses it without a cluster:
#   1. builds trendline and runs the REAL driver, `deploy/nightly.sh kubernetes ...`, end to
#      end against a fake kubectl (deploy/check/fake-kubectl.py: Jobs run as local pods, their
#      podFailurePolicy and per-index retries honoured), over a night that crosses midnight:
#        a. shard 2's first pod is SIGKILLed: the Indexed Job retries it itself, no retry Job;
#        b. shard 1 is killed on both its pods: the Job ends with failedIndexes, and the driver
#           creates exactly one one-shard retry Job, --shard 1/4, with the same as-of;
#        c. the driver run again for that night applies nothing: "merged already";
#        d. shard 3 killed on every pod: the driver gives up (exit 3) and names its pods' logs;
#        e. a pod hangs past DEADLINE: the driver deletes the Job and stops; run again, it merges;
#      the merged output of a, b and e must equal a single-process `trendline run`;
#   2. validates every manifest the driver applied, and the static ones, strictly (unknown
#      fields rejected) against the Kubernetes OpenAPI schemas of KUBERNETES_VERSION (default
#      1.29.0, the minimum README.md states), with kubernetes-validate from PyPI in a venv;
#   3. checks what a schema cannot: Pod Security "restricted", the failure policies, no shell
#      and no date in the commands, the labels, the RBAC rules, the pipeline's paths.
#
#   bash deploy/check-kubernetes.sh
#        f. the merge's first pod is killed and its retry succeeds: the driver must say merged;
#        g. exports arrive while a night runs (two new users'): they wait for the next night, which reads them; a night whose shard fails on every pod
#           (exit 3) leaves the last finished night published, and a night's lines are JSON.
#      Every night that merges is published: ROOT/current names it, nights.csv and the
#      metrics record it.
#
# The templates are rendered only by the driver: the Jobs checked in 2 and 3 are the ones it
# applied. Exits non-zero on the first failure. Needs python3 (with venv), network access to
# PyPI, and swift.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
k8s=$repo/deploy/kubernetes
version=${KUBERNETES_VERSION:-1.29.0}
validator=kubernetes-validate==1.37.0
as_of=2026-11-30

tmp=$(mktemp -d)
# The fake cluster's controllers and pods are processes of their own (each its own process
# group): stop those still running after a failure, by their ids, and only while the id is
# still theirs (their command line names this folder or the fake), before the folder goes.
cleanup() {
  local pid
  for pid in $(cat "$tmp"/*/state/runners.pid 2>/dev/null) \
    $(sed -n 's/^  "pid": \([0-9]*\).*/\1/p' "$tmp"/*/state/pods/*/*.json 2>/dev/null); do
    if tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -qF -e "$tmp" -e fake-kubectl.py; then
      kill -TERM -- "-$pid" 2>/dev/null || true
    fi
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "check-kubernetes: FAIL: $*" >&2; exit 1; }
started=$SECONDS

echo "== validator: $validator in a venv"
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/pip" install --quiet --disable-pip-version-check "$validator"
# The venv's python has PyYAML (kubernetes-validate needs it), which the fake kubectl uses too.
py=$tmp/venv/bin/python
kv=$tmp/venv/bin/kubernetes-validate
echo "kubernetes-validate $("$kv" --version), schemas for Kubernetes $version"

echo "== every file says what it is and how it is applied"
for f in "$k8s"/*.yaml; do
  head -1 "$f" | grep -q '^# ' || fail "$(basename "$f") does not start with a comment"
  grep -q 'kubectl\|sed ' "$f" || fail "$(basename "$f") does not say how it is applied"
done
echo "ok: $(cd "$k8s" && echo *.yaml)"

echo "== build trendline"
(cd "$repo" && swift build -c release --product trendline 2>&1 | tail -1)
trendline=$repo/.build/release/trendline
"$trendline" --help >/dev/null

echo "== the ConfigMap's pipeline is valid"
"$py" -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["data"]["pipeline.json"], end="")' \
  "$k8s/configmap.yaml" >"$tmp/pipeline.json"
"$trendline" validate "$tmp/pipeline.json" >/dev/null || fail "trendline validate refuses the ConfigMap's pipeline"
grep -q '"input": "/data/exports"' "$tmp/pipeline.json" || fail "the ConfigMap's source.input is not /data/exports"
echo "ok: trendline validate"

# --- The fake cluster -------------------------------------------------------------------

"$trendline" generate --users 40 --seed 1 --output "$tmp/corpus" >/dev/null

# kubectl, first in the driver's PATH (a real one may be installed: it must not be reached).
mkdir -p "$tmp/kbin"
printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$py" "$repo/deploy/check/fake-kubectl.py" >"$tmp/kbin/kubectl"
chmod +x "$tmp/kbin/kubectl"

# A `date` that says it is already 2026-12-01, first in the PATH of the pods that start after
# midnight. It logs every call: the pods run no shell, so nothing may call it.
mkdir -p "$tmp/tomorrow"
cat >"$tmp/tomorrow/date" <<EOF
#!/bin/sh
echo "date \$*" >>"$tmp/date-calls.log"
case "\$*" in *%F*) echo 2026-12-01 ;; *) echo "Tue Dec  1 00:05:00 UTC 2026" ;; esac
EOF
chmod +x "$tmp/tomorrow/date"
[ "$(PATH=$tmp/tomorrow:$PATH date -u +%F)" = 2026-12-01 ] || fail "the fake date does not say 2026-12-01"
: >"$tmp/date-calls.log"

# new_cluster NAME [kill|hang WHAT N]: an empty cluster and volume in $tmp/NAME: state/ (the
# fake's), data/ (the volume: /data in the pods, data/exports a copy of the corpus), config/
# (the ConfigMap: /config), and the pods' own trendline in podbin/. The first N pods of WHAT
# (a shard's index, or "merge") are SIGKILLed (exit 137), or hang for a minute, before they
# write anything; with `arrive`, the first pod of WHAT in the night of $as_of writes two new
# users' exports into the input before it runs, as apps uploading during the night would.
new_cluster() {
  local c=$tmp/$1 action=${2:-} bad=${3:-} bad_count=${4:-0}
  mkdir -p "$c/state" "$c/config" "$c/data" "$c/podbin" "$c/driverbin" "$c/attempts"
  cp -R "$tmp/corpus" "$c/data/exports"
  # The ConfigMap's pipeline, source.input moved with the volume, so that the single-process
  # run of the comparison reads the same corpus. The driver and the pods read this one file.
  sed "s|\"input\": \"/data/exports\"|\"input\": \"$c/data/exports\"|" "$tmp/pipeline.json" >"$c/config/pipeline.json"
  # The pods' `trendline`: the image's binary, behind a stand-in that logs the command line,
  # kills the pods it is told to, and puts the fake date first in the PATH of the pods that
  # start after midnight: indices 2 and 3, every one-shard retry (the next morning), the merge.
  cat >"$c/podbin/trendline" <<EOF
#!/bin/bash
set -u
what=\${JOB_COMPLETION_INDEX:-merge} tomorrow=
args=("\$@")
night=
for ((i = 0; i < \${#args[@]}; i++)); do
  if [ "\${args[i]}" = --shard ]; then what=\${args[i + 1]%/*} tomorrow=1; fi
  if [ "\${args[i]}" = --as-of ]; then night=\${args[i + 1]}; fi
done
case \$what in merge | [2-9] | [1-9][0-9]*) tomorrow=1 ;; esac
attempt=\$((\$(cat "$c/attempts/\$what" 2>/dev/null || echo 0) + 1))
echo "\$attempt" >"$c/attempts/\$what"
if grep -qx "\$night \$what" "$c/kill-always" 2>/dev/null; then
  echo "check-kubernetes: SIGKILL of \$what of night \$night, every attempt" >&2
  kill -KILL \$\$
elif [ "$action" = arrive ] && [ "\$what" = "$bad" ] && [ "\$night" = $as_of ] && [ ! -e "$c/arrived" ]; then
  : >"$c/arrived"
  cp "$c/data/exports/\$(ls "$c/data/exports" | grep -v users.csv | head -1)" "$c/data/exports/zz-arrived.csv"
  first=\$(ls "$c/data/exports" | grep -v users.csv | head -1)
  mkdir -p "$c/data/exports/arrived-user" && cp "$c/data/exports/\$first" "$c/data/exports/arrived-user/export.csv"
  echo "check-kubernetes: exports arrived during the night" >&2
elif [ "\$what" = "$bad" ] && [ "\$attempt" -le "$bad_count" ]; then
  if [ "$action" = hang ]; then
    echo "check-kubernetes: \$what hangs, attempt \$attempt" >&2
    sleep 60
  fi
  echo "check-kubernetes: SIGKILL of \$what, attempt \$attempt" >&2
  kill -KILL \$\$
fi
if [ -n "\$tomorrow" ]; then PATH=$tmp/tomorrow:\$PATH; fi
echo "index=\${JOB_COMPLETION_INDEX:-} \$*" >>"$c/pod-commands.log"
exec "$trendline" "\$@"
EOF
  # The driver's `trendline`: the same binary, its calls logged.
  cat >"$c/driverbin/trendline" <<EOF
#!/bin/sh
echo "\$*" >>"$c/driver-commands.log"
exec "$trendline" "\$@"
EOF
  chmod +x "$c/podbin/trendline" "$c/driverbin/trendline"
  : >"$c/pod-commands.log"
  : >"$c/driver-commands.log"
}

# run_driver NAME [VAR=VALUE...]: the nightly driver as the CronJob runs it, for the night of
# $as_of, 4 shards, against cluster NAME; its output in $c/driver.out, its exit code in $code.
# The driver gets the local folders themselves (it runs `trendline shards` on them), while the
# pods' commands keep the template's /data and /config, which the fake moves to the same
# folders.
run_driver() {
  c=$tmp/$1
  shift
  code=0
  (cd "$repo" && env -u NAMESPACE -u RETRIES -u DEADLINE -u PARALLELISM -u LOGS \
    PATH="$tmp/kbin:$PATH" FAKE_KUBE_STATE="$c/state" FAKE_KUBE_DATA="$c/data" FAKE_KUBE_CONFIG="$c/config" \
    FAKE_KUBE_PATH="$c/podbin:/usr/bin:/bin" \
    AS_OF=$as_of IMAGE=registry.example.com/trendline:1.0 TEMPLATES=deploy/kubernetes POLL=0 \
    TRENDLINE="$c/driverbin/trendline" "$@" \
    bash deploy/nightly.sh kubernetes "$c/config/pipeline.json" "$c/data/exports" "$c/data/out" 4) \
    >"$c/driver.out" 2>&1 || code=$?
  sed 's/^/  | /' "$c/driver.out"
}

# expect_cluster NAME < EXPECTED: the Jobs applied to cluster NAME, in order, each with its
# end and the exit codes of its pods by index (a retried index shows each pod's), must be
# EXPECTED. The driver's run id (the same in every name of a run) is shown as RUNID.
expect_cluster() {
  "$py" - "$tmp/$1/state" "${2:-1}" >"$tmp/$1/cluster.txt" <<'PY'
import glob, json, os, re, sys
state = sys.argv[1]
run_ids = []
for line in open(os.path.join(state, "applied.log")):
    namespace, name, what = line.split()
    if what != "created":
        print(f"{namespace} {name} {what}")
        continue
    match = re.search(r"-(\d{6}[0-9a-f]{4})$", name)
    if match and match.group(1) not in run_ids:
        run_ids.append(match.group(1))
    try:
        job = json.load(open(os.path.join(state, "jobs", namespace, name + ".json")))
    except FileNotFoundError:  # deleted, and its pods with it
        print(namespace, re.sub(r"-\d{6}[0-9a-f]{4}$", "-RUNID", name), "deleted")
        continue
    spec, status = job["spec"], job["status"]
    command = spec["template"]["spec"]["containers"][0]["command"]
    words = [namespace, re.sub(r"-\d{6}[0-9a-f]{4}$", "-RUNID", name)]
    if spec.get("completionMode") == "Indexed":
        words.append(f"Indexed completions={spec['completions']} {' '.join(command[-2:])}:")
    else:
        words.append(f"{command[1]}:")
    words += [c["type"] for c in status.get("conditions", []) if c["status"] == "True"] or ["unfinished"]
    for key in ("completedIndexes", "failedIndexes"):
        if key in status:
            words.append(f"{key}={status[key]}")
    pods = {}
    for file in glob.glob(os.path.join(state, "pods", namespace, "*.json")):
        pod = json.load(open(file))
        if pod["metadata"]["labels"]["batch.kubernetes.io/job-name"] == name:
            index = pod["metadata"]["labels"].get("batch.kubernetes.io/job-completion-index", "-")
            code = pod["status"].get("containerStatuses", [{}])[0].get("state", {}).get("terminated", {})
            pods.setdefault(index, []).append((pod["fake"]["created"], str(code.get("exitCode", "running"))))
    words.append("pods " + " ".join(f"{i}:" + ",".join(c for _, c in sorted(p)) for i, p in sorted(pods.items())))
    print(" ".join(words))
if len(run_ids) != int(sys.argv[2]):
    print(f"run ids: {run_ids} ({sys.argv[2]} driver runs, one id each)")
PY
  if ! diff -u - "$tmp/$1/cluster.txt"; then
    fail "cluster $1: the Jobs applied (+) are not those expected (-)"
  fi
  sed 's/^/  ok: /' "$tmp/$1/cluster.txt"
}

# expect_merged NAME [AS_OF]: the night of AS_OF (default $as_of) was merged as one as-of in
# ROOT/nights/AS_OF and published (ROOT/current names it, nights.csv has its row), every pod
# ran that as-of, nothing called date, and the output is what a single process makes of the
# users and files the night's listing names.
expect_merged() {
  local c=$tmp/$1 night_as_of=${2:-$as_of}
  local out=$c/data/out/nights/$night_as_of
  [ -f "$out/_SUCCESS" ] || fail "cluster $1: the merge wrote no _SUCCESS in nights/$night_as_of"
  "$py" - "$out" "$night_as_of" <<'PY'
import json, pathlib, sys
out, as_of = pathlib.Path(sys.argv[1]), sys.argv[2]
manifest = json.loads((out / "manifest.json").read_text())
shard_as_of = {e["shard"]["index"]: json.loads((out / e["manifest"]).read_text())["asOf"] for e in manifest["shards"]}
if manifest["asOf"] != as_of or shard_as_of != {i: as_of for i in range(4)}:
    sys.exit(f"check-kubernetes: FAIL: merged asOf {manifest['asOf']!r}, the shards' {shard_as_of}")
print(f"  ok: manifest.json asOf {manifest['asOf']}, as every shard's of 4; {manifest['totals']['users']} users")
PY
  [ "$(readlink "$c/data/out/current")" = "nights/$night_as_of" ] ||
    fail "cluster $1: current names '$(readlink "$c/data/out/current")', not nights/$night_as_of"
  grep -q "^$night_as_of,$night_as_of," "$c/data/out/nights.csv" || fail "cluster $1: nights.csv has no row for $night_as_of"
  grep -q "^trendline_night_info{night=\"$night_as_of\"" "$c/data/out/metrics/trendline.prom" ||
    fail "cluster $1: the metrics are not of $night_as_of"
  if grep ' run ' "$c/pod-commands.log" | grep -v -- "--as-of $night_as_of " | grep -q "nights/$night_as_of "; then
    cat "$c/pod-commands.log"
    fail "cluster $1: a pod ran another as-of"
  fi
  grep -q -- "--jobs 2 " "$c/pod-commands.log" || fail "cluster $1: \$(TRENDLINE_JOBS) did not become the CPU limit, 2"
  if grep ' shards ' "$c/driver-commands.log" | grep -v -- "--as-of" | grep -q .; then
    fail "cluster $1: the driver asked trendline shards without an as-of"
  fi
  if [ -s "$tmp/date-calls.log" ]; then cat "$tmp/date-calls.log"; fail "a pod called date"; fi
  rm -rf "$c/single"
  "$trendline" run "$c/config/pipeline.json" --output "$c/single" --as-of "$night_as_of" \
    --listing "$c/data/out/listings/$night_as_of" --quiet || fail "the single-process run failed"
  diff -r -x manifest.json -x shards -x .trendline-output "$c/single" "$out" >"$c/diff.txt" || {
    head -20 "$c/diff.txt"
    fail "cluster $1: the merged output differs from a single-process run"
  }
  # Every line the driver printed is one JSON object with its time, level, event and as-of.
  "$py" - "$c/driver.out" <<'PY' || fail "cluster $1: a line of the driver is not a JSON log line"
import json, sys
for line in open(sys.argv[1]):
    entry = json.loads(line)
    missing = {"ts", "level", "event", "asOf", "command"} - set(entry)
    if missing:
        sys.exit(f"missing {missing}: {line}")
PY
  echo "  ok: every pod ran --as-of $night_as_of (none called date); output = single-process run of its listing;"
  echo "      published (current, nights.csv, metrics); every driver line is JSON"
}

# The messages of the driver's JSON lines whose event is $2, one a line, from $1.
messages() {
  "$py" -c 'import json, sys
for line in open(sys.argv[1]):
    entry = json.loads(line)
    if entry["event"] == sys.argv[2]:
        print(entry.get("shard", "-"), entry["message"])' "$1" "$2"
}

night="trendline-$as_of"

echo "== a. a night across midnight; shard 2's first pod is SIGKILLed (137), the Job retries it"
new_cluster a kill 2 1
run_driver a
[ "$code" -eq 0 ] || fail "the driver exited $code, not 0"
expect_cluster a <<EOF
default $night-shards-a0-RUNID Indexed completions=4 --shards 4: Complete completedIndexes=0-3 pods 0:0 1:0 2:137,0 3:0
default $night-merge-RUNID merge: Complete pods -:0
EOF
expect_merged a

echo "== b. shard 1 killed on both its pods: one retry Job, --shard 1/4 (NAMESPACE=trendline)"
new_cluster b kill 1 2
run_driver b NAMESPACE=trendline
[ "$code" -eq 0 ] || fail "the driver exited $code, not 0"
grep -q "re-running shards 1 (attempt 1 of 2)" "$c/driver.out" || fail "the driver did not say it re-runs shard 1"
expect_cluster b <<EOF
trendline $night-shards-a0-RUNID Indexed completions=4 --shards 4: Failed completedIndexes=0,2-3 failedIndexes=1 pods 0:0 1:137,137 2:0 3:0
trendline $night-retry1-shard-1-RUNID Indexed completions=1 --shard 1/4: Complete completedIndexes=0 pods 0:0
trendline $night-merge-RUNID merge: Complete pods -:0
EOF
expect_merged b

echo "== c. the driver again for the same night: nothing to apply, merged already"
cp "$tmp/b/cluster.txt" "$tmp/b-before.txt"
applied_before=$(wc -l <"$tmp/b/state/applied.log")
run_driver b NAMESPACE=trendline
[ "$code" -eq 0 ] || fail "the second driver exited $code, not 0"
grep -q "all 4 shards complete and merged already" "$c/driver.out" || fail "the second driver did not say merged already"
[ "$(wc -l <"$tmp/b/state/applied.log")" -eq "$applied_before" ] || fail "the second driver applied a Job"
expect_cluster b <"$tmp/b-before.txt"

echo "== d. shard 3 killed on every pod: exit 3, its pods' logs named, nothing merged"
new_cluster d kill 3 99
run_driver d NAMESPACE=trendline
[ "$code" -eq 3 ] || fail "the driver exited $code, not 3"
messages "$c/driver.out" incomplete | grep -q "^3-of-4 " || fail "the driver did not name shard 3"
expect_cluster d <<EOF
trendline $night-shards-a0-RUNID Indexed completions=4 --shards 4: Failed completedIndexes=0-2 failedIndexes=3 pods 0:0 1:0 2:0 3:137,137
trendline $night-retry1-shard-3-RUNID Indexed completions=1 --shard 3/4: Failed failedIndexes=0 pods 0:137,137
trendline $night-retry2-shard-3-RUNID Indexed completions=1 --shard 3/4: Failed failedIndexes=0 pods 0:137,137
EOF
if [ -e "$c/data/out/nights/$as_of/manifest.json" ] || [ -e "$c/data/out/nights/$as_of/_SUCCESS" ]; then
  fail "something was merged"
fi
[ ! -e "$c/data/out/current" ] || fail "a night that failed was published"
# Every pod of shard 3 (2 pods in each of the 3 Jobs), each as a command that works.
messages "$c/driver.out" shardLog | sed 's/^3-of-4 /log: /' |
  grep -E '^log: kubectl --namespace trendline logs (pod/)?[a-z0-9-]+$' >"$tmp/d-logs.txt" || true
[ "$(wc -l <"$tmp/d-logs.txt")" -eq 6 ] || fail "the driver named $(wc -l <"$tmp/d-logs.txt") pod logs, not 6"
while read -r _ command; do
  PATH="$tmp/kbin:$PATH" FAKE_KUBE_STATE=$c/state $command | grep -q "SIGKILL of 3, attempt" ||
    fail "'$command' does not show the log of a pod of shard 3"
done <"$tmp/d-logs.txt"
echo "  ok: exit 3; the 6 'log:' lines are pods of shard 3, and each shows its log"

echo "== e. shard 0's first pod hangs past DEADLINE: the Job is deleted, the driver stops (3); again, it merges"
# DEADLINE is the night's budget: what still runs then is deleted, nothing more is submitted,
# and the driver says what is left. Run again for the same night, it re-runs only shard 0.
new_cluster e hang 0 1
run_driver e NAMESPACE=trendline DEADLINE=4
[ "$code" -eq 3 ] || fail "the driver exited $code, not 3, past its DEADLINE"
grep -q "jobs still unfinished past DEADLINE (4s), cancelling them: $night-shards-" "$c/driver.out" ||
  fail "the driver did not say it deletes the unfinished Job"
messages "$c/driver.out" incomplete | grep -q "^0-of-4 " || fail "the driver did not name shard 0"
run_driver e NAMESPACE=trendline
[ "$code" -eq 0 ] || fail "the driver exited $code, not 0, run again after its DEADLINE"
expect_cluster e 2 <<EOF
trendline $night-shards-a0-RUNID deleted
trendline $night-retry0-shard-0-RUNID Indexed completions=1 --shard 0/4: Complete completedIndexes=0 pods 0:0
trendline $night-merge-RUNID merge: Complete pods -:0
EOF
expect_merged e

{
  echo "== f. the merge's first pod is SIGKILLed: the Job retries it and completes, exit 0"
  # The driver must read the exit code of the pod that decided the Job, not of the pod
  # listed last: pods are listed by name, and the fake names a replacement to sort first.
  new_cluster f kill merge 1
  run_driver f NAMESPACE=trendline
  [ "$code" -eq 0 ] || fail "the driver exited $code, not 0, for a merge Job that completed"
  expect_cluster f <<EOF
trendline $night-shards-a0-RUNID Indexed completions=4 --shards 4: Complete completedIndexes=0-3 pods 0:0 1:0 2:0 3:0
trendline $night-merge-RUNID merge: Complete pods -:137,0
EOF
  expect_merged f

  echo "== g. exports arrive during a night: they wait for the next; a failed night keeps the last published"
  # Night 1 (2026-11-29) runs as any other. During night 2 ($as_of) shard 1's pod writes two
  # new users' exports before it runs: the night completes from its listing (neither read, no
  # shard re-run) and is published. Night 3 (2026-12-01) reads them.
  # Night 4 (2026-12-02) loses shard 3 on every pod: exit 3, and current still names night 3.
  new_cluster g arrive 1
  run_driver g NAMESPACE=trendline AS_OF=2026-11-29 KEEP=2
  [ "$code" -eq 0 ] || fail "night 2026-11-29 exited $code, not 0"
  expect_merged g 2026-11-29
  run_driver g NAMESPACE=trendline KEEP=2
  [ "$code" -eq 0 ] || fail "night $as_of, with exports arriving, exited $code, not 0"
  [ -e "$c/data/exports/arrived-user/export.csv" ] || fail "no export arrived during night $as_of"
  expect_merged g
  [ ! -e "$c/data/out/nights/$as_of/users/arrived-user" ] || fail "night $as_of read an export that arrived during it"
  [ "$(grep -c ' run ' "$c/pod-commands.log")" -eq 8 ] || fail "a shard of night $as_of ran twice: $(cat "$c/pod-commands.log")"
  echo "  ok: the arrivals waited; night $as_of ran each shard once and is published"
  run_driver g NAMESPACE=trendline AS_OF=2026-12-01 KEEP=2
  [ "$code" -eq 0 ] || fail "night 2026-12-01 exited $code, not 0"
  expect_merged g 2026-12-01
  [ -d "$c/data/out/nights/2026-12-01/users/arrived-user" ] || fail "night 2026-12-01 did not read the arrived user"
  [ ! -e "$c/data/out/nights/2026-11-29" ] && [ ! -e "$c/data/out/listings/2026-11-29" ] ||
    fail "KEEP=2 did not remove night 2026-11-29 and its listing"
  echo "  ok: night 2026-12-01 read the arrivals; KEEP=2 removed night 2026-11-29"
  echo "2026-12-02 3" >"$c/kill-always"
  run_driver g NAMESPACE=trendline AS_OF=2026-12-02 KEEP=2
  [ "$code" -eq 3 ] || fail "night 2026-12-02, its shard 3 failing, exited $code, not 3"
  [ "$(readlink "$c/data/out/current")" = nights/2026-12-01 ] ||
    fail "after a failed night, current names '$(readlink "$c/data/out/current")', not nights/2026-12-01"
  [ -f "$c/data/out/nights/2026-12-01/_SUCCESS" ] || fail "the published night lost its _SUCCESS"
  echo "  ok: night 2026-12-02 failed (exit 3); current still names nights/2026-12-01, whole"
}

# --- The manifests ----------------------------------------------------------------------

echo "== strict schema validation against Kubernetes $version"
# Every Job of every cluster above (expect_cluster said which ones each driver applied).
mkdir -p "$tmp/applied"
for f in "$tmp"/*/state/applied/*.yaml; do
  c=${f#"$tmp"/}
  cp "$f" "$tmp/applied/${c%%/*}-$(basename "$f")"
done
applied=("$tmp/applied"/*.yaml)
manifests=("$k8s/pvc.yaml" "$k8s/configmap.yaml" "$k8s/rbac.yaml" "$k8s/cronjob.yaml" "${applied[@]}")
"$kv" --strict --kubernetes-version "$version" "${manifests[@]}" >"$tmp/validate.log" || {
  cat "$tmp/validate.log"
  fail "a manifest does not validate against Kubernetes $version"
}
sed "s|$tmp/||" "$tmp/validate.log"
# A validator that passes everything proves nothing: an unknown field, at the top of the Job
# spec and deep in its pod template, must be refused.
night_job=$(ls "$tmp/applied"/a-*-shards-*.yaml)
sed 's/^  backoffLimitPerIndex: 1$/  backoffLimitPerIndex: 1\n  backoffLimitPerIndexx: 1/' \
  "$night_job" >"$tmp/bad-spec.yaml"
sed 's/^            readOnlyRootFilesystem: true$/            readOnlyRootFilesystem: true\n            readOnlyRootFS: true/' \
  "$night_job" >"$tmp/bad-container.yaml"
for bad in "$tmp/bad-spec.yaml" "$tmp/bad-container.yaml"; do
  ! cmp -s "$bad" "$night_job" || fail "the negative test did not change $(basename "$bad")"
  if "$kv" --strict --kubernetes-version "$version" "$bad" >/dev/null 2>&1; then
    fail "the validator accepted an unknown field ($(basename "$bad")): strict mode is not on"
  fi
done
echo "ok: strict mode refuses unknown fields in the Job spec and in a container"

echo "== what the schema does not check"
"$py" - "$k8s" "$tmp/applied" <<'PY'
import json, pathlib, posixpath, re, sys
import yaml

k8s, applied = map(pathlib.Path, sys.argv[1:])
problems = []
def check(ok, message):
    if not ok:
        problems.append(message)

def load(path):
    return [d for d in yaml.safe_load_all(path.read_text()) if d]

def pod_spec(doc):
    if doc["kind"] == "CronJob":
        return doc["spec"]["jobTemplate"]["spec"]["template"]["spec"]
    return doc["spec"]["template"]["spec"]

# Pod Security Standards, "restricted" profile (and baseline, which it includes).
ALLOWED_VOLUMES = {"configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim",
                   "projected", "secret"}
def restricted(name, spec):
    pod = spec.get("securityContext", {})
    check(spec.get("restartPolicy") == "Never", f"{name}: restartPolicy must be Never")
    for key in ("hostNetwork", "hostPID", "hostIPC"):
        check(not spec.get(key), f"{name}: {key}")
    for volume in spec.get("volumes", []):
        kinds = set(volume) - {"name"}
        check(kinds <= ALLOWED_VOLUMES, f"{name}: volume {volume['name']} is {kinds}")
    for c in spec.get("initContainers", []) + spec["containers"]:
        sc = c.get("securityContext", {})
        where = f"{name}: container {c['name']}"
        non_root = sc.get("runAsNonRoot", pod.get("runAsNonRoot"))
        check(non_root is True, f"{where}: runAsNonRoot must be true")
        check(sc.get("runAsUser", pod.get("runAsUser")) not in (None, 0), f"{where}: runAsUser must be set, not 0")
        seccomp = sc.get("seccompProfile", pod.get("seccompProfile", {})).get("type")
        check(seccomp in ("RuntimeDefault", "Localhost"), f"{where}: seccompProfile RuntimeDefault")
        check(sc.get("allowPrivilegeEscalation") is False, f"{where}: allowPrivilegeEscalation false")
        check(not sc.get("privileged"), f"{where}: privileged")
        caps = sc.get("capabilities", {})
        check(caps.get("drop") == ["ALL"], f"{where}: capabilities must drop ALL")
        check(set(caps.get("add", [])) <= {"NET_BIND_SERVICE"}, f"{where}: adds capabilities")
        check(sc.get("readOnlyRootFilesystem") is True, f"{where}: readOnlyRootFilesystem true")
        mounts = {m["mountPath"]: m for m in c.get("volumeMounts", [])}
        check("/tmp" in mounts, f"{where}: no writable /tmp")
        check("/data" in mounts, f"{where}: no /data")
        if "/config" in mounts:
            check(mounts["/config"].get("readOnly") is True, f"{where}: /config must be read-only")
        check(c.get("resources", {}).get("limits", {}).get("memory"), f"{where}: no memory limit")
    for pod_key in ("runAsUser", "runAsGroup", "fsGroup"):
        check(pod.get(pod_key) == 65532, f"{name}: pod {pod_key} must be 65532")

def labels(name, doc, step, as_of):
    want = {"app.kubernetes.io/name": "trendline", "trendline.dev/step": step}
    if as_of:
        want["trendline.dev/as-of"] = as_of
    for where, meta in (("Job", doc["metadata"]), ("pod template", doc["spec"]["template"]["metadata"])):
        got = meta.get("labels", {})
        for key, value in want.items():
            check(got.get(key) == value, f"{name}: {where} label {key} is {got.get(key)!r}, not {value!r}")

def command_without_shell(name, command):
    check(command[0] == "trendline", f"{name}: the command starts with {command[0]!r}, not trendline")
    for word in command:
        check("$(date" not in word and "`" not in word, f"{name}: the command computes a date: {word!r}")
        check(posixpath.basename(word) not in ("sh", "bash", "dash", "ash", "busybox") and word != "-c",
              f"{name}: the command runs a shell: {word!r}")
        check(word.replace("$(TRENDLINE_JOBS)", "").count("$(") == 0, f"{name}: unexpected expansion {word!r}")

def failure_rules(doc):
    return [(r["action"], tuple(r["onExitCodes"]["values"]) if "onExitCodes" in r else None,
             tuple(c["type"] for c in r.get("onPodConditions", [])))
            for r in doc["spec"]["podFailurePolicy"]["rules"]]

# The Jobs the driver applied: a night's Indexed Job, one-shard retries and merges.
steps = {}
for path in sorted(applied.glob("*.yaml")):
    file = path.name
    (job,) = load(path)
    step = job["metadata"]["labels"].get("trendline.dev/step")
    steps[step] = steps.get(step, 0) + 1
    name = job["metadata"]["name"]
    # Every Job names its night (its as-of), which its labels and command must state too.
    named = re.fullmatch(r"trendline-(\d{4}-\d\d-\d\d)-(shards-a\d|retry\d-shard-\d|merge)-\d{6}[0-9a-f]{4}", name)
    check(named, f"{file}: name {name}")
    night = named.group(1) if named else "?"
    spec = job["spec"]
    pod = spec["template"]["spec"]
    restricted(file, pod)
    check(pod["serviceAccountName"] == "trendline", f"{file}: serviceAccountName")
    check(pod["automountServiceAccountToken"] is False, f"{file}: automountServiceAccountToken")
    (container,) = pod["containers"]
    command = container["command"]
    command_without_shell(file, command)
    check(container["image"] == "registry.example.com/trendline:1.0", f"{file}: image")
    check("args" not in container, f"{file}: args")
    check(spec.get("ttlSecondsAfterFinished") == 604800, f"{file}: ttlSecondsAfterFinished")
    if step == "merge":
        labels(file, job, "merge", night)
        check(command[:10] == ["trendline", "merge", "--output", f"/data/out/nights/{night}", "--input", "/data/exports",
                               "--listing", f"/data/out/listings/{night}", "--log", "json"], f"{file}: command {command}")
        check(command[10:] == [f"/data/out/nights/{night}/shards/{i}-of-4" for i in range(4)],
              f"{file}: the shard folders {command[10:]}")
        check(spec["backoffLimit"] == 1, f"{file}: backoffLimit")
        check(failure_rules(job) == [("FailJob", (1, 2), ()), ("Ignore", None, ("DisruptionTarget",))],
              f"{file}: rules {failure_rules(job)}")
        continue
    labels(file, job, "shards", night)
    retry = "-retry" in name
    completions = 1 if retry else 4
    check(spec["completionMode"] == "Indexed", f"{file}: completionMode")
    check(spec["completions"] == completions, f"{file}: completions {spec['completions']}")
    check(spec["maxFailedIndexes"] == completions, f"{file}: maxFailedIndexes must equal completions")
    check(spec["backoffLimitPerIndex"] == 1, f"{file}: backoffLimitPerIndex")
    check(1 <= spec["parallelism"] <= completions, f"{file}: parallelism")
    check(failure_rules(job) == [("FailIndex", (1, 2), ()), ("Ignore", None, ("DisruptionTarget",))],
          f"{file}: podFailurePolicy rules are {failure_rules(job)}")
    check(spec["activeDeadlineSeconds"] == 21600, f"{file}: activeDeadlineSeconds")
    check(command[:11] == ["trendline", "run", "/config/pipeline.json", "--input", "/data/exports", "--output",
                           f"/data/out/nights/{night}", "--listing", f"/data/out/listings/{night}", "--as-of", night],
          f"{file}: command {command}")
    shard = ["--shard", name.split("-shard-")[1].split("-")[0] + "/4"] if retry else ["--shards", "4"]
    check(command[-4:] == ["--jobs", "$(TRENDLINE_JOBS)"] + shard, f"{file}: command ends {command[-4:]}")
    env = {e["name"]: e for e in container["env"]}
    check(env["TRENDLINE_JOBS"]["valueFrom"]["resourceFieldRef"] == {"containerName": "trendline",
          "resource": "limits.cpu", "divisor": "1"}, f"{file}: TRENDLINE_JOBS")
    check(container["resources"] == {"requests": {"cpu": "2", "memory": "2Gi"},
                                     "limits": {"cpu": "2", "memory": "4Gi"}}, f"{file}: resources")
    volumes = {v["name"]: v for v in pod["volumes"]}
    check(volumes["data"]["persistentVolumeClaim"]["claimName"] == "trendline-data", f"{file}: data volume")
    check(volumes["config"]["configMap"]["name"] == "trendline-pipeline", f"{file}: config volume")
    check("emptyDir" in volumes["tmp"], f"{file}: tmp volume")
check(steps.get("shards") and steps.get("merge") and set(steps) == {"shards", "merge"}, f"applied Jobs: {steps}")

# The CronJob and its driver pod.
(cron,) = load(k8s / "cronjob.yaml")
spec = cron["spec"]
check((spec["schedule"], spec["timeZone"], spec["concurrencyPolicy"]) == ("30 2 * * *", "Etc/UTC", "Forbid"),
      "cronjob.yaml: schedule, timeZone, concurrencyPolicy")
check(spec.get("startingDeadlineSeconds"), "cronjob.yaml: startingDeadlineSeconds")
check((spec["successfulJobsHistoryLimit"], spec["failedJobsHistoryLimit"]) == (3, 7), "cronjob.yaml: history")
driver_pod = pod_spec(cron)
restricted("cronjob.yaml", driver_pod)
check(driver_pod["serviceAccountName"] == "trendline-driver", "cronjob.yaml: serviceAccountName")
(driver,) = driver_pod["containers"]
check(driver["command"][:3] == ["bash", "/driver/nightly.sh", "kubernetes"], f"cronjob.yaml: {driver['command']}")
# The driver is given the paths the pods see: the templates' commands name the same ones.
check(driver["command"][3:6] == ["/config/pipeline.json", "/data/exports", "/data/out"],
      f"cronjob.yaml: the driver's paths {driver['command'][3:6]}")
env = {e["name"]: e for e in driver["env"]}
check(env["TEMPLATES"]["value"] == "/driver", "cronjob.yaml: TEMPLATES")
check(env["IMAGE"]["value"] == "registry.example.com/trendline:1.0", "cronjob.yaml: IMAGE")
check(env["NAMESPACE"]["valueFrom"]["fieldRef"]["fieldPath"] == "metadata.namespace", "cronjob.yaml: NAMESPACE")
volumes = {v["name"]: v for v in driver_pod["volumes"]}
check(volumes["driver"]["configMap"]["name"] == "trendline-driver", "cronjob.yaml: driver ConfigMap")

# RBAC: exactly what the driver needs.
docs = {(d["kind"], d["metadata"]["name"]): d for d in load(k8s / "rbac.yaml")}
check(docs[("ServiceAccount", "trendline")].get("automountServiceAccountToken") is False,
      "rbac.yaml: the shard pods' ServiceAccount must not mount a token")
rules = {(tuple(r["apiGroups"]), tuple(r["resources"])): set(r["verbs"])
         for r in docs[("Role", "trendline-driver")]["rules"]}
check(rules == {(("batch",), ("jobs",)): {"create", "get", "list", "watch", "delete"},
                (("",), ("pods",)): {"get", "list", "watch"}, (("",), ("pods/log",)): {"get"}},
      f"rbac.yaml: Role rules {rules}")
binding = docs[("RoleBinding", "trendline-driver")]
check(binding["roleRef"]["name"] == "trendline-driver" and binding["subjects"][0]["name"] == "trendline-driver",
      "rbac.yaml: RoleBinding")

# The PVC.
(pvc,) = load(k8s / "pvc.yaml")
check(pvc["spec"]["accessModes"] == ["ReadWriteMany"], "pvc.yaml: accessModes")
check(pvc["spec"]["resources"]["requests"]["storage"] == "100Gi", "pvc.yaml: storage")

# The pipeline: every path absolute, under /config or /data.
(cm,) = load(k8s / "configmap.yaml")
pipeline = json.loads(cm["data"]["pipeline.json"])
source = pipeline["source"]
for key in ("input", "catalog", "users"):
    if key in source:
        path = posixpath.normpath(source[key])
        check(source[key].startswith("/") and (path.startswith("/data/") or path.startswith("/config/")),
              f"configmap.yaml: source.{key} {source[key]!r} is outside /config and /data")

if problems:
    print("\n".join("problem: " + p for p in problems))
    sys.exit(f"{len(problems)} problems")
print("ok: Pod Security restricted, failure policies, commands without a shell or a date, labels, RBAC, "
      "PVC, pipeline paths")
PY

echo "check-kubernetes: all checks passed in $((SECONDS - started))s (the driver end to end; Kubernetes $version" \
  "schemas, $validator)"
