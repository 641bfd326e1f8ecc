#!/usr/bin/env bash
# Checks deploy/kubernetes/ without a cluster:
#   1. renders the two Job templates with sample values, as the nightly driver does (sed);
#   2. validates every manifest strictly (unknown fields rejected) against the Kubernetes
#      OpenAPI schemas of KUBERNETES_VERSION (default 1.29.0, the minimum README.md states),
#      with kubernetes-validate from PyPI, installed into a throw-away venv;
#   3. checks what a schema cannot: Pod Security "restricted", the failure policy's rules, no
#      shell and no date in the shard command, the labels, the pipeline's paths;
#   4. simulates a night across midnight: builds trendline, runs the rendered shard command of
#      each index 0..3 locally (a fake `date` says it is already the next day for indices 2
#      and 3), a one-shard retry, then the rendered merge, and asserts one as-of throughout.
#
#   bash deploy/check-kubernetes.sh
#
# Exits non-zero on the first failure. Needs python3 (with venv), network access to PyPI,
# and swift.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
k8s=$repo/deploy/kubernetes
version=${KUBERNETES_VERSION:-1.29.0}
validator=kubernetes-validate==1.37.0

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check-kubernetes: FAIL: $*" >&2; exit 1; }

echo "== validator: $validator in a venv"
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/pip" install --quiet --disable-pip-version-check "$validator"
py=$tmp/venv/bin/python
kv=$tmp/venv/bin/kubernetes-validate
echo "kubernetes-validate $("$kv" --version), schemas for Kubernetes $version"

echo "== render the templates"
rendered=$tmp/rendered
mkdir -p "$rendered"
image=registry.example.com/trendline:1.0
# render_shards NAME AS_OF COMPLETIONS PARALLELISM SHARD_OPTION SHARD_VALUE
render_shards() {
  sed -e "s|@NAME@|$1|g" -e "s|@AS_OF@|$2|g" -e "s|@COMPLETIONS@|$3|g" -e "s|@PARALLELISM@|$4|g" \
    -e "s|@SHARD_OPTION@|$5|g" -e "s|@SHARD_VALUE@|$6|g" -e "s|@IMAGE@|$image|g" "$k8s/shards-job.yaml"
}
# render_merge NAME AS_OF
render_merge() { sed -e "s|@NAME@|$1|g" -e "s|@AS_OF@|$2|g" -e "s|@IMAGE@|$image|g" "$k8s/merge-job.yaml"; }
render_shards trendline-2026-11-30-shards-r1a2b3 2026-11-30 16 8 --shards 16 >"$rendered/shards-night.yaml"
render_shards trendline-2026-11-30-shards-r4d5e6 2026-11-30 1 1 --shard 5/16 >"$rendered/shards-retry.yaml"
render_merge trendline-2026-11-30-merge-r1a2b3 2026-11-30 >"$rendered/merge.yaml"
for f in "$rendered"/*.yaml; do
  if grep -n '@[A-Z_]*@' "$f"; then fail "$(basename "$f"): a placeholder is left after rendering"; fi
done
echo "rendered: $(cd "$rendered" && echo *.yaml)"

echo "== every file says what it is and how it is applied"
for f in "$k8s"/*.yaml; do
  head -1 "$f" | grep -q '^# ' || fail "$(basename "$f") does not start with a comment"
  grep -q 'kubectl\|sed ' "$f" || fail "$(basename "$f") does not say how it is applied"
done
echo "ok: $(cd "$k8s" && echo *.yaml)"

echo "== strict schema validation against Kubernetes $version"
manifests=("$k8s/pvc.yaml" "$k8s/configmap.yaml" "$k8s/rbac.yaml" "$k8s/cronjob.yaml"
  "$rendered/shards-night.yaml" "$rendered/shards-retry.yaml" "$rendered/merge.yaml")
"$kv" --strict --kubernetes-version "$version" "${manifests[@]}" | tee "$tmp/validate.log" ||
  fail "a manifest does not validate against Kubernetes $version"
# A validator that passes everything proves nothing: an unknown field, at the top of the Job
# spec and deep in its pod template, must be refused.
sed 's/^  backoffLimitPerIndex: 1$/  backoffLimitPerIndex: 1\n  backoffLimitPerIndexx: 1/' \
  "$rendered/shards-night.yaml" >"$tmp/bad-spec.yaml"
sed 's/^            readOnlyRootFilesystem: true$/            readOnlyRootFilesystem: true\n            readOnlyRootFS: true/' \
  "$rendered/shards-night.yaml" >"$tmp/bad-container.yaml"
for bad in "$tmp/bad-spec.yaml" "$tmp/bad-container.yaml"; do
  ! cmp -s "$bad" "$rendered/shards-night.yaml" || fail "the negative test did not change $(basename "$bad")"
  if "$kv" --strict --kubernetes-version "$version" "$bad" >/dev/null 2>&1; then
    fail "the validator accepted an unknown field ($(basename "$bad")): strict mode is not on"
  fi
done
echo "ok: strict mode refuses unknown fields in the Job spec and in a container"

echo "== what the schema does not check"
"$py" - "$k8s" "$rendered" <<'PY'
import json, pathlib, posixpath, sys
import yaml

k8s, rendered = map(pathlib.Path, sys.argv[1:])
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

# The shard Jobs.
for file, completions, option, value in (("shards-night.yaml", 16, "--shards", "16"),
                                         ("shards-retry.yaml", 1, "--shard", "5/16")):
    (job,) = load(rendered / file)
    spec = job["spec"]
    pod = spec["template"]["spec"]
    labels(file, job, "shards", "2026-11-30")
    restricted(file, pod)
    check(spec["completionMode"] == "Indexed", f"{file}: completionMode")
    check(spec["completions"] == completions, f"{file}: completions {spec['completions']}")
    check(spec["maxFailedIndexes"] == completions, f"{file}: maxFailedIndexes must equal completions")
    check(spec["backoffLimitPerIndex"] == 1, f"{file}: backoffLimitPerIndex")
    check(1 <= spec["parallelism"] <= completions, f"{file}: parallelism")
    check(failure_rules(job) == [("FailIndex", (1, 2), ()), ("Ignore", None, ("DisruptionTarget",))],
          f"{file}: podFailurePolicy rules are {failure_rules(job)}")
    check(spec["ttlSecondsAfterFinished"] == 604800 and spec["activeDeadlineSeconds"] == 21600, f"{file}: times")
    check(pod["serviceAccountName"] == "trendline", f"{file}: serviceAccountName")
    (container,) = pod["containers"]
    command = container["command"]
    command_without_shell(file, command)
    check(command[:9] == ["trendline", "run", "/config/pipeline.json", "--input", "/data/exports", "--output",
                          "/data/out", "--as-of", "2026-11-30"], f"{file}: command {command}")
    check(command[-4:] == ["--jobs", "$(TRENDLINE_JOBS)", option, value], f"{file}: command ends {command[-4:]}")
    check("args" not in container, f"{file}: args")
    env = {e["name"]: e for e in container["env"]}
    check(env["TRENDLINE_JOBS"]["valueFrom"]["resourceFieldRef"] == {"containerName": "trendline",
          "resource": "limits.cpu", "divisor": "1"}, f"{file}: TRENDLINE_JOBS")
    check(container["resources"] == {"requests": {"cpu": "2", "memory": "2Gi"},
                                     "limits": {"cpu": "2", "memory": "4Gi"}}, f"{file}: resources")
    volumes = {v["name"]: v for v in pod["volumes"]}
    check(volumes["data"]["persistentVolumeClaim"]["claimName"] == "trendline-data", f"{file}: data volume")
    check(volumes["config"]["configMap"]["name"] == "trendline-pipeline", f"{file}: config volume")
    check("emptyDir" in volumes["tmp"], f"{file}: tmp volume")

# The merge Job.
(merge,) = load(rendered / "merge.yaml")
labels("merge.yaml", merge, "merge", "2026-11-30")
restricted("merge.yaml", merge["spec"]["template"]["spec"])
command_without_shell("merge.yaml", merge["spec"]["template"]["spec"]["containers"][0]["command"])
check(merge["spec"]["backoffLimit"] == 1, "merge.yaml: backoffLimit")
check(failure_rules(merge)[0] == ("FailJob", (1, 2), ()), f"merge.yaml: rules {failure_rules(merge)}")
check(merge["spec"].get("ttlSecondsAfterFinished"), "merge.yaml: ttlSecondsAfterFinished")

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
env = {e["name"]: e for e in driver["env"]}
check(env["TEMPLATES"]["value"] == "/driver", "cronjob.yaml: TEMPLATES")
check(env["IMAGE"]["value"] == "registry.example.com/trendline:1.0", "cronjob.yaml: IMAGE")
check(env["NAMESPACE"]["valueFrom"]["fieldRef"]["fieldPath"] == "metadata.namespace", "cronjob.yaml: NAMESPACE")
volumes = {v["name"]: v for v in driver_pod["volumes"]}
check(volumes["driver"]["configMap"]["name"] == "trendline-driver", "cronjob.yaml: driver ConfigMap")

# RBAC: exactly what the brief of the driver needs.
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
check(source["input"] == "/data/exports", f"configmap.yaml: source.input is {source['input']!r}")
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

echo "== build trendline"
(cd "$repo" && swift build -c release 2>&1 | tail -1)
bin=$repo/.build/release
"$bin/trendline" --help >/dev/null

echo "== the ConfigMap's pipeline is valid"
"$py" -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["data"]["pipeline.json"], end="")' \
  "$k8s/configmap.yaml" >"$tmp/pipeline.json"
"$bin/trendline" validate "$tmp/pipeline.json" >/dev/null || fail "trendline validate refuses the ConfigMap's pipeline"
echo "ok: trendline validate"

echo "== a night across midnight: 4 shards of 2026-11-30, indices 2 and 3 start on 2026-12-01"
# The pods' folders: $sim/data is the volume (/data), $sim/config the ConfigMap (/config).
sim=$tmp/sim
mkdir -p "$sim/data" "$sim/config"
"$bin/trendline" generate --users 40 --seed 1 --output "$sim/data/exports" >/dev/null
# The ConfigMap's pipeline with its /data paths moved to the simulated volume.
sed "s|\"/data/|\"$sim/data/|g" "$tmp/pipeline.json" >"$sim/config/pipeline.json"
grep -q "\"input\": \"$sim/data/exports\"" "$sim/config/pipeline.json" || fail "the pipeline copy does not point at the corpus"
# A `date` that says it is already 2026-12-01, and logs every call: nothing should call it.
mkdir -p "$tmp/tomorrow"
cat >"$tmp/tomorrow/date" <<EOF
#!/bin/sh
echo "date \$*" >>"$tmp/date-calls.log"
case "\$*" in *%F*) echo 2026-12-01 ;; *) echo "Tue Dec  1 00:05:00 UTC 2026" ;; esac
EOF
chmod +x "$tmp/tomorrow/date"
echo "the fake date of indices 2 and 3 says: $(PATH=$tmp/tomorrow:$PATH date -u +%F)"
: >"$tmp/date-calls.log"
render_shards trendline-2026-11-30-shards-sim 2026-11-30 4 4 --shards 4 >"$tmp/shards-sim.yaml"
render_shards trendline-2026-11-30-shards-retry 2026-11-30 1 1 --shard 2/4 >"$tmp/shards-retry.yaml"
render_merge trendline-2026-11-30-merge-sim 2026-11-30 >"$tmp/merge-sim.yaml"

# command_of FILE: the container's command as Kubernetes would run it, one word a line: the
# container's env expanded into $(VAR) (TRENDLINE_JOBS is the CPU limit, here 1), and /data and
# /config moved to the simulated folders.
command_of() {
  "$py" - "$1" "$sim" <<'PY'
import re, sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
sim = sys.argv[2]
(container,) = doc["spec"]["template"]["spec"]["containers"]
env = {"TRENDLINE_JOBS": "1"}
for e in container.get("env", []):
    if "value" in e:
        env[e["name"]] = e["value"]
def expand(word):  # Kubernetes' rule: $(VAR) of a defined VAR, $$ for a literal $
    return re.sub(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)",
                  lambda m: "$" if m.group(0) == "$$" else env.get(m.group(1), m.group(0)), word)
for word in container["command"] + container.get("args", []):
    word = expand(word)
    for mount in ("/data", "/config"):
        if word == mount or word.startswith(mount + "/"):
            word = sim + word
    print(word)
PY
}

# run_pod FILE INDEX DATE_SHIM_DIR: one pod: a clean environment with only what the pod has
# (no TZ: UTC), the scheduler's JOB_COMPLETION_INDEX, and PATH finding trendline.
run_pod() {
  local words path=$bin
  local -a index=()
  mapfile -t words < <(command_of "$1")
  if [ -n "$2" ]; then index=(JOB_COMPLETION_INDEX="$2"); fi
  if [ -n "$3" ]; then path=$3:$path; fi
  env -i PATH="$path:/usr/bin:/bin" TRENDLINE_JOBS=1 "${index[@]}" "${words[@]}"
}

for index in 0 1 2 3; do
  shim=
  [ "$index" -ge 2 ] && shim=$tmp/tomorrow
  code=0
  run_pod "$tmp/shards-sim.yaml" "$index" "$shim" 2>"$tmp/shard-$index.log" || code=$?
  [ "$code" -eq 0 ] || { tail -5 "$tmp/shard-$index.log"; fail "shard $index exited $code"; }
  [ -f "$sim/data/out/shards/$index-of-4/_SUCCESS" ] || fail "shard $index wrote no shards/$index-of-4/_SUCCESS"
  echo "shard $index of 4: exit 0$([ -n "$shim" ] && echo ', with the fake date first in PATH')"
done

echo "-- a one-shard retry of shard 2 the next morning (completions 1, --shard 2/4, same as-of)"
cp "$sim/data/out/shards/0-of-4/manifest.json" "$tmp/shard-0-before.json"
cp "$sim/data/out/shards/2-of-4/manifest.json" "$tmp/shard-2-before.json"
sleep 1  # the shard manifest's startedAt is in seconds: the retry's must differ
code=0
run_pod "$tmp/shards-retry.yaml" 0 "$tmp/tomorrow" 2>"$tmp/retry.log" || code=$?
[ "$code" -eq 0 ] || { tail -5 "$tmp/retry.log"; fail "the retry of shard 2 exited $code"; }
! cmp -s "$tmp/shard-2-before.json" "$sim/data/out/shards/2-of-4/manifest.json" ||
  fail "the retry did not rewrite shards/2-of-4"
cmp -s "$tmp/shard-0-before.json" "$sim/data/out/shards/0-of-4/manifest.json" ||
  fail "the retry of shard 2 changed shards/0-of-4 (it ran JOB_COMPLETION_INDEX's shard)"
echo "retry of shard 2: exit 0 (JOB_COMPLETION_INDEX=0, --shard 2/4 wins)"

echo "-- the merge"
code=0
run_pod "$tmp/merge-sim.yaml" "" "$tmp/tomorrow" >"$tmp/merge.log" 2>&1 || code=$?
cat "$tmp/merge.log"
[ "$code" -eq 0 ] || fail "the merge exited $code"
if [ -s "$tmp/date-calls.log" ]; then cat "$tmp/date-calls.log"; fail "a pod called date"; fi
"$py" - "$sim/data/out" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
manifest = json.loads((out / "manifest.json").read_text())
shard_as_of = {e["shard"]["index"]: json.loads((out / e["manifest"]).read_text())["asOf"] for e in manifest["shards"]}
if manifest["asOf"] != "2026-11-30" or shard_as_of != {i: "2026-11-30" for i in range(4)}:
    sys.exit(f"check-kubernetes: FAIL: merged asOf {manifest['asOf']!r}, the shards' {shard_as_of}")
totals = manifest["totals"]
print(f"ok: manifest.json asOf {manifest['asOf']}, as every shard's of 4; {totals['users']} users, "
      f"{totals['usersFailed']} failed; no pod called date")
PY
[ -f "$sim/data/out/_SUCCESS" ] || fail "the merge wrote no _SUCCESS"

echo "check-kubernetes: all checks passed (Kubernetes $version schemas, $validator)"
