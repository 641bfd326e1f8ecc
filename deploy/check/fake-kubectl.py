#!/usr/bin/env python3
"""A fake `kubectl` for deploy/check-kubernetes.sh: just enough of a cluster to run the nightly
driver (deploy/nightly.sh kubernetes ...) end to end on one machine, with no cluster at all.

It implements what the driver calls, and nothing more, so that a new call in the driver shows
up as a failure here ("fake kubectl: unsupported: ...", exit 1) instead of passing unnoticed:

  [--namespace NS | -n NS] apply -f -                  Jobs only; runs them (below)
  get jobs|pods -l K=V[,K=V...] -o jsonpath=TEMPLATE|name
  get pod/NAME -o jsonpath=TEMPLATE
  delete job NAME --wait=false
  logs pod/NAME  (or logs NAME, as kubectl accepts)

A Job is "run" as the Job controller would: a background process (this file, --run-job)
starts one pod per completion index (at most `parallelism` at once), each pod a local process
with the container's command, its env resolved (value, resourceFieldRef, fieldRef), $(VAR)
expanded as Kubernetes does, JOB_COMPLETION_INDEX for Indexed Jobs, and the /data and /config
mounts moved to local folders by a path prefix substitution. A failed pod is judged by the
Job's podFailurePolicy (FailJob, FailIndex, Ignore, Count), then backoffLimitPerIndex or
backoffLimit, and maxFailedIndexes, and the Job ends with the condition Complete or Failed and
the status fields (active, succeeded, failed, completedIndexes, failedIndexes) that the API
server would show, omitted when zero or empty as there. Lists are sorted by name, as the API
server's are, and a replacement pod's name sorts before the pod it replaces. Between a failed pod and its
replacement the index has no active pod (the controller's back-off): a driver that trusts
`.status.active` alone would think the Job ended.

Environment:
  FAKE_KUBE_STATE    the folder holding the cluster (required): applied/<name>.yaml is every
                     manifest as applied, applied.log one line per apply, jobs/ and pods/
                     the objects (JSON), pods/<ns>/<pod>.log their logs, calls.log every call
  FAKE_KUBE_DATA     the local folder standing for the volume mounted at /data
  FAKE_KUBE_CONFIG   the local folder standing for the ConfigMap mounted at /config
  FAKE_KUBE_PATH     the pods' PATH (default /usr/local/bin:/usr/bin:/bin): where the
                     container's command (say `trendline`) is found
  FAKE_KUBE_NODE_CPUS  the node's CPUs, for a resourceFieldRef of a container without a limit
                     (default 2)
  FAKE_KUBE_BACKOFF  seconds between a failed pod and its replacement (default 0.2)
  FAKE_KUBE_SYNC     1: apply runs the Job to its end before returning (default: background)
"""

import contextlib
import datetime
import fcntl
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid

STATE = os.environ.get("FAKE_KUBE_STATE", "")


class Refused(Exception):
    """An error kubectl or the API server would print, with kubectl's exit code 1."""


def unsupported(what):
    raise Refused(f"fake kubectl: unsupported: {what}")


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# --- State ------------------------------------------------------------------------------
# Every object is one JSON file, replaced atomically, so a reader never sees half of one; a
# read-modify-write holds the lock file, so the runner and a `kubectl delete` do not race.


def path(*parts):
    return os.path.join(STATE, *parts)


@contextlib.contextmanager
def locked():
    os.makedirs(STATE, exist_ok=True)
    with open(path(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def write_json(file, value):
    os.makedirs(os.path.dirname(file), exist_ok=True)
    temporary = f"{file}.{os.getpid()}.{threading.get_ident()}.tmp"
    with open(temporary, "w") as out:
        json.dump(value, out, indent=1, sort_keys=True)
    os.replace(temporary, file)


def read_json(file):
    try:
        with open(file) as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def objects(kind, namespace):
    folder = path(kind, namespace)
    names = sorted(n[:-5] for n in os.listdir(folder) if n.endswith(".json")) if os.path.isdir(folder) else []
    # Sorted by name, as the API server lists them (etcd's key order), not by creation.
    return [o for o in (read_json(os.path.join(folder, n + ".json")) for n in names) if o]


# --- Label selectors and JSONPath -------------------------------------------------------


def parse_selector(text):
    wanted = {}
    for term in text.split(","):
        match = re.fullmatch(r"([A-Za-z0-9./_-]+)==?([A-Za-z0-9._-]*)", term)
        if not match:
            unsupported(f"label selector term {term!r} (only key=value, comma-separated)")
        wanted[match.group(1)] = match.group(2)
    return wanted


def selected(obj, wanted):
    labels = obj["metadata"].get("labels", {})
    return all(labels.get(k) == v for k, v in wanted.items())


def split_template(text):
    """kubectl's JSONPath template as a list of ("text", s) and ("expr", s) pieces."""
    pieces, i = [], 0
    while i < len(text):
        start = text.find("{", i)
        if start < 0:
            pieces.append(("text", text[i:]))
            break
        if start > i:
            pieces.append(("text", text[i:start]))
        j, quote = start + 1, None
        while j < len(text) and (quote or text[j] != "}"):
            if quote and text[j] == "\\":
                j += 1
            elif text[j] in "\"'":
                quote = None if quote == text[j] else (quote or text[j])
            j += 1
        if j >= len(text):
            unsupported(f"jsonpath {text!r}: unclosed {{")
        pieces.append(("expr", text[start + 1:j].strip()))
        i = j + 1
    return pieces


def parse_template(text):
    """A tree: a list of ("text", s), ("path", steps) and ("range", steps, body)."""
    stack = [[]]
    ranges = []
    for kind, piece in split_template(text):
        if kind == "text":
            stack[-1].append(("text", piece))
        elif piece.startswith('"') and piece.endswith('"') and len(piece) >= 2:
            stack[-1].append(("text", json.loads(piece)))
        elif piece.startswith("range "):
            body = []
            ranges.append(parse_path(piece[len("range "):].strip()))
            stack.append(body)
        elif piece == "end":
            if not ranges:
                unsupported(f"jsonpath {text!r}: end without range")
            body = stack.pop()
            stack[-1].append(("range", ranges.pop(), body))
        else:
            stack[-1].append(("path", parse_path(piece)))
    if ranges:
        unsupported(f"jsonpath {text!r}: range without end")
    return stack[0]


def parse_path(text):
    """Steps of a path such as .items[?(@.status.active)].metadata.labels.a\\.b/c"""
    original, steps, i = text, [], 0
    if text.startswith("@") or text.startswith("$"):
        i = 1
    while i < len(text):
        if text[i] == ".":
            if text[i + 1:i + 2] == ".":
                unsupported(f"jsonpath path {original!r}: recursive descent")
            j, name = i + 1, ""
            while j < len(text) and text[j] not in ".[":
                if text[j] == "\\" and j + 1 < len(text):
                    j += 1
                name += text[j]
                j += 1
            if not name:
                unsupported(f"jsonpath path {original!r}")
            steps.append(("field", name))
            i = j
        elif text[i] == "[":
            j, depth, quote = i + 1, 1, None
            while j < len(text) and depth:
                c = text[j]
                if quote:
                    quote = None if c == quote else quote
                elif c in "\"'":
                    quote = c
                elif c == "[":
                    depth += 1
                elif c == "]":
                    depth -= 1
                j += 1
            inside = text[i + 1:j - 1].strip()
            if inside == "*":
                steps.append(("all",))
            elif re.fullmatch(r"-?\d+", inside):
                steps.append(("index", int(inside)))
            elif inside.startswith("?(") and inside.endswith(")"):
                steps.append(("filter",) + parse_filter(inside[2:-1].strip(), original))
            else:
                unsupported(f"jsonpath subscript [{inside}] in {original!r}")
            i = j
        else:
            unsupported(f"jsonpath path {original!r}")
    return steps


def parse_filter(text, original):
    match = re.fullmatch(r"(@[^=!<>]*?)\s*(?:(==|!=)\s*(\"[^\"]*\"|'[^']*'|-?\d+))?", text)
    if not match:
        unsupported(f"jsonpath filter ?({text}) in {original!r}")
    left, operator, right = match.groups()
    if right is not None:
        right = right[1:-1] if right[0] in "\"'" else int(right)
    return (parse_path(left), operator or "exists", right)


def evaluate(nodes, steps):
    for step in steps:
        out = []
        for node in nodes:
            if step[0] == "field":
                # Missing keys give nothing, as kubectl get -o jsonpath allows (allowMissingKeys).
                if isinstance(node, dict) and step[1] in node:
                    out.append(node[step[1]])
            elif step[0] == "all":
                if isinstance(node, list):
                    out.extend(node)
                elif isinstance(node, dict):
                    out.extend(node.values())
            elif step[0] == "index":
                if isinstance(node, list) and -len(node) <= step[1] < len(node):
                    out.append(node[step[1]])
            elif step[0] == "filter":
                _, left, operator, right = step
                for element in node if isinstance(node, list) else []:
                    found = evaluate([element], left)
                    if operator == "exists":
                        keep = bool(found)
                    else:
                        equal = any(show(v) == show(right) for v in found)
                        keep = equal if operator == "==" else (bool(found) and not equal)
                    if keep:
                        out.append(element)
        nodes = out
    return nodes


def show(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def render(tree, node):
    out = []
    for item in tree:
        if item[0] == "text":
            out.append(item[1])
        elif item[0] == "path":
            out.append(" ".join(show(v) for v in evaluate([node], item[1])))
        else:
            for element in evaluate([node], item[1]):
                out.append(render(item[2], element))
    return "".join(out)


# --- Quantities and env ------------------------------------------------------------------

SUFFIXES = {"": 1, "m": 1e-3, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30,
            "Ti": 2**40}


def quantity(text):
    match = re.fullmatch(r"([0-9.]+)(m|k|M|G|T|Ki|Mi|Gi|Ti)?", str(text))
    if not match:
        unsupported(f"resource quantity {text!r}")
    return float(match.group(1)) * SUFFIXES[match.group(2) or ""]


def expand(text, env):
    """Kubernetes' $(VAR) expansion: a defined VAR is replaced, an undefined one kept as it is
    written, and $$ is one literal $ (so $$(VAR) stays $(VAR))."""
    out, i = [], 0
    while i < len(text):
        if text.startswith("$$", i):
            out.append("$")
            i += 2
        elif text.startswith("$(", i):
            end = text.find(")", i)
            if end < 0:
                out.append(text[i:])
                break
            name = text[i + 2:end]
            out.append(env[name] if name in env else text[i:end + 1])
            i = end + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def container_env(pod, container, index):
    env = {}
    if index is not None:
        # The Job controller adds it to every container of an Indexed Job's pods.
        env["JOB_COMPLETION_INDEX"] = str(index)
    if container.get("envFrom"):
        unsupported("envFrom")
    for entry in container.get("env", []):
        name = entry["name"]
        if "value" in entry:
            env[name] = expand(str(entry["value"]), env)
        elif "resourceFieldRef" in entry.get("valueFrom", {}):
            ref = entry["valueFrom"]["resourceFieldRef"]
            target = container
            if ref.get("containerName"):
                target = next((c for c in pod["spec"]["containers"] if c["name"] == ref["containerName"]), None)
                if target is None:
                    raise Refused(f"resourceFieldRef names no container {ref['containerName']!r}")
            group, _, resource = ref["resource"].partition(".")
            given = target.get("resources", {}).get(group, {}).get(resource)
            if given is None:  # no limit: the node's allocatable
                given = os.environ.get("FAKE_KUBE_NODE_CPUS", "2") if resource == "cpu" else "8Gi"
            env[name] = str(math.ceil(quantity(given) / quantity(ref.get("divisor", "1")) - 1e-9))
        elif "fieldRef" in entry.get("valueFrom", {}):
            field = entry["valueFrom"]["fieldRef"]["fieldPath"]
            metadata = pod["metadata"]
            match = re.fullmatch(r"metadata\.(labels|annotations)\['([^']+)'\]", field)
            if field in ("metadata.name", "metadata.namespace"):
                env[name] = metadata[field.split(".")[1]]
            elif match:
                env[name] = metadata.get(match.group(1), {}).get(match.group(2), "")
            elif field == "spec.serviceAccountName":
                env[name] = pod["spec"].get("serviceAccountName", "default")
            else:
                unsupported(f"fieldRef {field}")
        else:
            unsupported(f"env {name}: {entry.get('valueFrom')}")
    return env


# --- Admission: what the API server refuses that a schema does not ----------------------

LABEL_VALUE = re.compile(r"(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?")
DNS_LABEL = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")


def admit(job):
    name = job["metadata"].get("name", "")
    problems = []
    if not (DNS_LABEL.fullmatch(name) and len(name) <= 63):
        # A Job's name becomes the value of its pods' job-name label: at most 63 characters.
        problems.append(f"metadata.name: Invalid value: {name!r}: must be a DNS label of at most 63 characters")
    spec = job.get("spec", {})
    template = spec.get("template", {})
    for where, labels in (("metadata.labels", job["metadata"].get("labels", {})),
                          ("spec.template.metadata.labels", template.get("metadata", {}).get("labels", {}))):
        for key, value in labels.items():
            if not isinstance(value, str) or len(value) > 63 or not LABEL_VALUE.fullmatch(value):
                problems.append(f"{where}: Invalid value: {value!r}: a label value")
    pod = template.get("spec", {})
    containers = {c.get("name") for c in pod.get("containers", [])}
    if not pod.get("containers"):
        problems.append("spec.template.spec.containers: Required value")
    restart = pod.get("restartPolicy")
    if restart not in ("Never", "OnFailure"):
        problems.append(f"spec.template.spec.restartPolicy: Unsupported value: {restart!r}")
    indexed = spec.get("completionMode", "NonIndexed") == "Indexed"
    completions = spec.get("completions")
    if indexed and completions is None:
        problems.append("spec.completions: Required value: when completion mode is Indexed")
    per_index = spec.get("backoffLimitPerIndex")
    if per_index is not None and not indexed:
        problems.append("spec.backoffLimitPerIndex: requires completionMode Indexed")
    if spec.get("maxFailedIndexes") is not None:
        if per_index is None:
            problems.append("spec.maxFailedIndexes: requires backoffLimitPerIndex")
        elif completions is not None and spec["maxFailedIndexes"] > completions:
            problems.append("spec.maxFailedIndexes: must be less than or equal to completions")
    policy = spec.get("podFailurePolicy")
    if policy:
        if restart != "Never":
            problems.append("spec.template.spec.restartPolicy: must be Never when podFailurePolicy is set")
        if spec.get("podReplacementPolicy", "Failed") != "Failed":
            problems.append("spec.podReplacementPolicy: must be Failed when podFailurePolicy is set")
        for n, rule in enumerate(policy.get("rules", [])):
            where = f"spec.podFailurePolicy.rules[{n}]"
            if rule.get("action") == "FailIndex" and per_index is None:
                problems.append(f"{where}.action: FailIndex requires backoffLimitPerIndex")
            codes = rule.get("onExitCodes")
            if codes:
                values = codes.get("values", [])
                if values != sorted(set(values)):
                    problems.append(f"{where}.onExitCodes.values: must be unique and ordered")
                if codes.get("operator") == "In" and 0 in values:
                    problems.append(f"{where}.onExitCodes.values: 0 is not allowed with In")
                if codes.get("containerName") and codes["containerName"] not in containers:
                    problems.append(f"{where}.onExitCodes.containerName: no container {codes['containerName']!r}")
    if problems:
        raise Refused(f'The Job "{name}" is invalid: ' + "; ".join(problems))


# --- The Job controller -----------------------------------------------------------------


def compress(indices):
    """"0,2-3", as .status.completedIndexes and .status.failedIndexes."""
    out, run = [], []
    for i in sorted(indices):
        if run and i == run[-1] + 1:
            run.append(i)
        else:
            if run:
                out.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
            run = [i]
    if run:
        out.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
    return ",".join(out)


class JobRun:
    def __init__(self, namespace, name):
        self.namespace, self.name = namespace, name
        self.job = read_json(path("jobs", namespace, name + ".json"))
        if self.job is None:
            raise Refused(f"job {name} was deleted before it started")
        self.uid = self.job["metadata"]["uid"]
        spec = self.job["spec"]
        self.indexed = spec.get("completionMode", "NonIndexed") == "Indexed"
        self.completions = spec.get("completions", 1)
        self.parallelism = spec.get("parallelism", 1)
        self.per_index = spec.get("backoffLimitPerIndex")
        self.backoff_limit = spec.get("backoffLimit", 2**31 - 1 if self.per_index is not None else 6)
        self.max_failed = spec.get("maxFailedIndexes")
        self.rules = (spec.get("podFailurePolicy") or {}).get("rules", [])
        self.lock = threading.Lock()
        self.active = self.succeeded = self.failed = 0
        self.completed, self.failed_indexes = set(), set()
        self.failures = {}
        self.finished = None  # (type, reason, message) once the Job has ended
        self.pending = list(range(self.completions))
        self.processes = {}
        self.pods_created = 0

    def save(self):
        """Writes the Job's status; False once the Job has been deleted (stop then)."""
        # Under the lock: two pods' threads must not write their views out of order.
        with self.lock:
            return self.save_locked()

    def save_locked(self):
        status = {"startTime": self.job["status"]["startTime"], "ready": 0}
        for key, value in (("active", self.active), ("succeeded", self.succeeded), ("failed", self.failed)):
            if value:
                status[key] = value
        if self.indexed and self.completed:
            status["completedIndexes"] = compress(self.completed)
        if self.per_index is not None and self.failed_indexes:
            status["failedIndexes"] = compress(self.failed_indexes)
        if self.finished:
            kind, reason, message = self.finished
            status["conditions"] = [{"type": kind, "status": "True", "reason": reason, "message": message,
                                     "lastProbeTime": now(), "lastTransitionTime": now()}]
            if kind == "Complete":
                status["completionTime"] = now()
        with locked():
            file = path("jobs", self.namespace, self.name + ".json")
            current = read_json(file)
            # Deleted, or being deleted in the foreground: the controller starts no more pods.
            if not current or current["metadata"]["uid"] != self.uid or current["metadata"].get("deletionTimestamp"):
                return False
            current["status"] = status
            write_json(file, current)
        return True

    def rule_for(self, container, code):
        for rule in self.rules:
            codes = rule.get("onExitCodes")
            if codes:
                if codes.get("containerName") not in (None, container):
                    continue
                hit = code in codes["values"]
                if hit == (codes["operator"] == "In"):
                    return rule["action"]
            # onPodConditions: the fake never disrupts a pod, so DisruptionTarget never holds.
        return "Count"

    def finish(self, kind, reason, message):
        if not self.finished:
            self.finished = (kind, reason, message)
            for process in list(self.processes.values()):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)

    def next_suffix(self):
        """The random-looking 5 characters of a pod's name. Not random here: each pod of a Job
        sorts BEFORE the pods created ahead of it, so a caller that takes the last pod listed
        (the API lists by name) for the newest one is caught every time, not half the time."""
        with self.lock:
            self.pods_created += 1
            number = 27**5 - 1 - self.pods_created
        alphabet, out = "2456789bcdfghjklmnpqrstvwxz", ""
        for _ in range(5):
            number, digit = divmod(number, 27)
            out = alphabet[digit] + out
        return out

    def run_pod(self, index):
        template = self.job["spec"]["template"]
        suffix = self.next_suffix()
        prefix = f"{self.name}-{index}-" if self.indexed else f"{self.name}-"
        pod_name = prefix[:58] + suffix
        labels = dict(template.get("metadata", {}).get("labels", {}))
        labels.update({"batch.kubernetes.io/job-name": self.name, "job-name": self.name,
                       "batch.kubernetes.io/controller-uid": self.uid, "controller-uid": self.uid})
        annotations = dict(template.get("metadata", {}).get("annotations", {}))
        if self.indexed:
            labels["batch.kubernetes.io/job-completion-index"] = str(index)
            annotations["batch.kubernetes.io/job-completion-index"] = str(index)
        pod = {"apiVersion": "v1", "kind": "Pod",
               "metadata": {"name": pod_name, "namespace": self.namespace, "labels": labels,
                            "annotations": annotations, "creationTimestamp": now(), "uid": str(uuid.uuid4()),
                            "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": self.name,
                                                 "uid": self.uid, "controller": True}]},
               "spec": template["spec"], "status": {"phase": "Pending"},
               # Not Kubernetes: the process, and a creation order finer than creationTimestamp's
               # seconds; `get` leaves it out.
               "fake": {"created": time.time_ns()}}
        if len(template["spec"]["containers"]) != 1 or template["spec"].get("initContainers"):
            unsupported("a pod of more than one container")
        (container,) = template["spec"]["containers"]
        pod_file = path("pods", self.namespace, pod_name + ".json")
        log_file = path("pods", self.namespace, pod_name + ".log")
        write_json(pod_file, pod)
        try:
            env = container_env(pod, container, index if self.indexed else None)
        except Refused as problem:
            return self.pod_ended(pod, pod_file, container["name"], 1, "CreateContainerConfigError", str(problem))
        env.setdefault("PATH", os.environ.get("FAKE_KUBE_PATH", "/usr/local/bin:/usr/bin:/bin"))
        env["HOSTNAME"] = pod_name
        words = [expand(w, env) for w in container.get("command", []) + container.get("args", [])]
        if not container.get("command"):
            unsupported("a container without command (the image's entrypoint)")
        # The volumes: a word naming a path under a mount the container has is moved to the
        # local folder standing for that mount; a mount it does not have is not moved, so a pod
        # reading /config without mounting it fails as it would in a cluster.
        mounts = {m["mountPath"]: m for m in container.get("volumeMounts", [])}
        local = {"/data": os.environ.get("FAKE_KUBE_DATA"), "/config": os.environ.get("FAKE_KUBE_CONFIG")}
        for mount, folder in local.items():
            if mount in mounts and folder:
                words = [folder + w[len(mount):] if w == mount or w.startswith(mount + "/") else w for w in words]
        executable = shutil.which(words[0], path=env["PATH"]) if "/" not in words[0] else words[0]
        if not executable:
            message = f'exec: "{words[0]}": executable file not found in $PATH'
            with open(log_file, "w") as log:
                log.write(message + "\n")
            return self.pod_ended(pod, pod_file, container["name"], 128, "StartError", message)
        with self.lock:
            if self.finished:
                os.remove(pod_file)
                return
            with open(log_file, "w") as log:
                # The container's stdout and stderr, interleaved, as `kubectl logs` shows them.
                process = subprocess.Popen([executable] + words[1:], env=env, cwd="/", stdin=subprocess.DEVNULL,
                                           stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            self.processes[pod_name] = process
            pod["status"] = {"phase": "Running", "containerStatuses": [
                {"name": container["name"], "ready": True, "restartCount": 0,
                 "state": {"running": {"startedAt": now()}}}]}
            pod["fake"]["pid"] = process.pid
            write_json(pod_file, pod)
        code = process.wait()
        with self.lock:
            self.processes.pop(pod_name, None)
        # Killed by a signal: the runtime reports 128 + the signal, as 137 for SIGKILL.
        code = 128 - code if code < 0 else code
        return self.pod_ended(pod, pod_file, container["name"], code, "Completed" if code == 0 else "Error", "")

    def pod_ended(self, pod, pod_file, container, code, reason, message):
        pod["status"] = {"phase": "Succeeded" if code == 0 else "Failed", "containerStatuses": [
            {"name": container, "ready": False, "restartCount": 0,
             "state": {"terminated": {"exitCode": code, "reason": reason, "message": message,
                                      "finishedAt": now()}}}]}
        pod["fake"].pop("pid", None)
        with locked():
            if os.path.exists(pod_file):  # not deleted with its Job meanwhile
                write_json(pod_file, pod)
        return code

    def run_index(self, index):
        """Runs pods for one index until it succeeds, fails for good, or the Job ends."""
        while True:
            with self.lock:
                if self.finished:
                    return
                self.active += 1
            if not self.save():
                return self.stop()
            code = self.run_pod(index)
            with self.lock:
                self.active -= 1
                retry = code is not None and not self.finished and self.judge(index, code)
            if not self.save():
                return self.stop()
            if not retry:
                return
            # The back-off before the replacement: the index has no active pod meanwhile.
            time.sleep(float(os.environ.get("FAKE_KUBE_BACKOFF", "0.2")))

    def judge(self, index, code):
        """Counts a pod's end; whether its index gets another pod."""
        if code == 0:
            self.succeeded += 1
            self.completed.add(index)
            return False
        action = self.rule_for(self.job["spec"]["template"]["spec"]["containers"][0]["name"], code)
        if action == "Ignore":
            return True
        self.failed += 1
        if action == "FailJob":
            self.finish("Failed", "PodFailurePolicy", f"Container exited with code {code}, FailJob")
            return False
        if action == "Count":
            if self.per_index is None:
                if self.failed > self.backoff_limit:
                    self.finish("Failed", "BackoffLimitExceeded", "Job has reached the specified backoff limit")
                    return False
                return True
            self.failures[index] = self.failures.get(index, 0) + 1
            if self.failures[index] <= self.per_index:
                return True
        # FailIndex, or the index's retries are spent.
        self.failed_indexes.add(index)
        if self.max_failed is not None and len(self.failed_indexes) > self.max_failed:
            self.finish("Failed", "MaxFailedIndexesExceeded", "Job has exceeded maxFailedIndexes")
        return False

    def stop(self):
        with self.lock:
            self.finish("Failed", "Deleted", "the Job was deleted")

    def run(self):
        self.save()
        workers = []

        def worker():
            while True:
                with self.lock:
                    if not self.pending or self.finished:
                        return
                    index = self.pending.pop(0)
                self.run_index(index)

        # A worker a pod at once: parallelism pods run at the same time.
        for _ in range(max(1, min(self.parallelism, self.completions))):
            thread = threading.Thread(target=worker)
            thread.start()
            workers.append(thread)
        for thread in workers:
            thread.join()
        if self.finished and self.finished[1] == "Deleted":
            return
        if not self.finished:
            if self.failed_indexes:
                self.finish("Failed", "FailedIndexes", "Job has failed indexes")
            else:
                self.finish("Complete", "", "")
        self.save()


# --- The commands -----------------------------------------------------------------------


def take_flags(args, known):
    """Splits options from words: `known` maps a flag to whether it takes a value."""
    flags, words, i = {}, [], 0
    while i < len(args):
        arg = args[i]
        if arg.startswith("-") and arg != "-":
            key, equals, value = arg.partition("=")
            if key not in known:
                unsupported(f"option {arg}")
            if known[key] and not equals:
                if i + 1 >= len(args):
                    raise Refused(f"error: flag needs an argument: {key}")
                value = args[i + 1]
                i += 1
            flags[key] = value if known[key] or equals else True
        else:
            words.append(arg)
        i += 1
    return flags, words


def create(namespace, args):
    """`create -f -`: as apply, but a Job of the same name is an error, never a no-op."""
    return apply(namespace, args, verb="create")


def apply(namespace, args, verb="apply"):
    flags, words = take_flags(args, {"-f": True, "--filename": True})
    if words or flags.get("-f", flags.get("--filename")) != "-":
        unsupported(f"{verb} " + " ".join(args) + f" (only {verb} -f -)")
    import yaml  # only apply needs it; the driver's many `get`s start faster without

    text = sys.stdin.read()
    try:
        docs = [d for d in yaml.safe_load_all(text) if d is not None]
    except yaml.YAMLError as error:
        raise Refused(f"error: error parsing STDIN: {error}")
    if not docs:
        raise Refused("error: no objects passed to apply")
    for doc in docs:
        if (doc.get("apiVersion"), doc.get("kind")) != ("batch/v1", "Job"):
            unsupported(f"apply of {doc.get('apiVersion')} {doc.get('kind')} (only batch/v1 Job)")
        if doc["metadata"].get("namespace", namespace) != namespace:
            # The manifests name no namespace (README.md): -n decides.
            unsupported("a manifest naming a namespace other than the one given")
        admit(doc)
    for doc in docs:
        name = doc["metadata"]["name"]
        with locked():
            file = path("jobs", namespace, name + ".json")
            existing = read_json(file)
            if existing and verb == "create":
                raise Refused(f'Error from server (AlreadyExists): jobs.batch "{name}" already exists')
            if existing:
                # A Job's template is immutable: the same manifest is a no-op, another refused.
                if existing["spec"] == doc["spec"] and existing["metadata"].get("labels") == doc["metadata"].get(
                        "labels"):
                    print(f"job.batch/{name} unchanged")
                    log_apply(namespace, name, "unchanged")
                    continue
                raise Refused(f'The Job "{name}" is invalid: spec.template: Invalid value: field is immutable')
            manifest = dict(doc)
            manifest["metadata"] = dict(doc["metadata"], namespace=namespace, uid=str(uuid.uuid4()),
                                        creationTimestamp=now())
            manifest["status"] = {"startTime": now()}
            write_json(file, manifest)
            os.makedirs(path("applied"), exist_ok=True)
            with open(path("applied", name + ".yaml"), "w") as out:
                out.write(text if len(docs) == 1 else yaml.safe_dump(doc, sort_keys=False))
            log_apply(namespace, name, "created")
        print(f"job.batch/{name} created")
        if os.environ.get("FAKE_KUBE_SYNC") == "1":
            JobRun(namespace, name).run()
        else:
            # The controller: a process of its own, detached from the caller's stdout (a `$(...)`
            # around the driver would otherwise wait for it) and its terminal.
            with open(path("runner-" + name + ".err"), "w") as err:
                runner = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--run-job", namespace, name],
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                                 start_new_session=True, cwd="/")
            with open(path("runners.pid"), "a") as pids:
                pids.write(f"{runner.pid}\n")


def log_apply(namespace, name, what):
    with open(path("applied.log"), "a") as log:
        log.write(f"{namespace} {name} {what}\n")


KINDS = {"jobs": "jobs", "job": "jobs", "job.batch": "jobs", "jobs.batch": "jobs",
         "pods": "pods", "pod": "pods", "po": "pods"}


def get(namespace, args):
    flags, words = take_flags(args, {"-l": True, "--selector": True, "-o": True, "--output": True})
    output = flags.get("-o", flags.get("--output"))
    selector = flags.get("-l", flags.get("--selector"))
    if len(words) == 1 and "/" in words[0]:
        kind, name = words[0].split("/", 1)
    elif len(words) in (1, 2):
        kind, name = words[0], words[1] if len(words) == 2 else None
    else:
        unsupported("get " + " ".join(args))
    if kind not in KINDS:
        unsupported(f"get {kind}")
    kind = KINDS[kind]
    if name is not None and selector is not None:
        raise Refused("error: name cannot be provided when a selector is specified")
    if output == "name":
        template = None
    elif output and output.startswith("jsonpath="):
        template = parse_template(output[len("jsonpath="):])
    else:
        unsupported(f"get -o {output} (only jsonpath=... and name)")
    view = job_view if kind == "jobs" else pod_view
    if name is not None:
        obj = read_json(path(kind, namespace, name + ".json"))
        if obj is None:
            resource = "jobs.batch" if kind == "jobs" else "pods"
            raise Refused(f'Error from server (NotFound): {resource} "{name}" not found')
        items = [view(obj)]
        if template is None:
            print(f"{'job.batch' if kind == 'jobs' else 'pod'}/{name}")
        else:
            sys.stdout.write(render(template, items[0]))
        return
    wanted = parse_selector(selector) if selector else {}
    items = [view(o) for o in objects(kind, namespace) if selected(o, wanted)]
    if template is None:
        for item in items:
            print(f"{'job.batch' if kind == 'jobs' else 'pod'}/{item['metadata']['name']}")
        if not items:
            print(f"No resources found in {namespace} namespace.", file=sys.stderr)
    else:
        sys.stdout.write(render(template, {"apiVersion": "v1", "kind": "List", "items": items,
                                           "metadata": {"resourceVersion": ""}}))


def job_view(job):
    return job


def pod_view(pod):
    return {k: v for k, v in pod.items() if k != "fake"}


def process_alive(pid):
    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def delete(namespace, args):
    flags, words = take_flags(args, {"--wait": False, "--cascade": True})
    if flags.get("--wait") != "false":
        unsupported("delete without --wait=false")
    cascade = flags.get("--cascade", "background")
    if cascade not in ("background", "foreground"):
        unsupported(f"delete --cascade={cascade}")
    if len(words) == 1 and words[0].startswith(("job/", "jobs/", "job.batch/")):
        words = ["job", words[0].split("/", 1)[1]]
    if len(words) != 2 or words[0] not in ("job", "jobs", "job.batch"):
        unsupported("delete " + " ".join(args) + " (only delete job NAME --wait=false)")
    name = words[1]
    with locked():
        job = read_json(path("jobs", namespace, name + ".json"))
        if job is None:
            raise Refused(f'Error from server (NotFound): jobs.batch "{name}" not found')
        if cascade == "background":
            # Background propagation: the Job goes at once, its pods are stopped and collected.
            os.remove(path("jobs", namespace, name + ".json"))
        else:
            job["metadata"]["deletionTimestamp"] = now()
            write_json(path("jobs", namespace, name + ".json"), job)
        stopped = []
        for pod in objects("pods", namespace):
            if pod["metadata"]["labels"].get("batch.kubernetes.io/controller-uid") == job["metadata"]["uid"]:
                if pod["fake"].get("pid"):
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(pod["fake"]["pid"], signal.SIGTERM)
                        stopped.append(pod["fake"]["pid"])
                os.remove(path("pods", namespace, pod["metadata"]["name"] + ".json"))
    if cascade == "foreground":
        # Foreground propagation: the Job stays until its pods are gone (here: their processes).
        deadline = time.time() + 30
        while stopped and time.time() < deadline:
            stopped = [pid for pid in stopped if process_alive(pid)]
            time.sleep(0.1)
        with locked():
            with contextlib.suppress(FileNotFoundError):
                os.remove(path("jobs", namespace, name + ".json"))
    with open(path("deleted.log"), "a") as log:
        log.write(f"{namespace} {name}\n")
    print(f'job.batch "{name}" deleted')


def logs(namespace, args):
    _, words = take_flags(args, {})
    if len(words) != 1:
        unsupported("logs " + " ".join(args))
    name = words[0]
    if "/" in name:
        kind, name = name.split("/", 1)
        if kind not in ("pod", "pods", "po"):
            unsupported(f"logs {words[0]}")
    if read_json(path("pods", namespace, name + ".json")) is None:
        raise Refused(f'Error from server (NotFound): pods "{name}" not found')
    with open(path("pods", namespace, name + ".log")) as log:
        sys.stdout.write(log.read())


def main(argv):
    if not STATE:
        raise Refused("fake kubectl: FAKE_KUBE_STATE is not set")
    if argv[:1] == ["--run-job"]:
        JobRun(argv[1], argv[2]).run()
        return
    os.makedirs(STATE, exist_ok=True)
    with open(path("calls.log"), "a") as log:
        log.write(json.dumps(argv) + "\n")
    # The namespace flag, wherever it is (kubectl takes global flags anywhere).
    namespace, rest, i = "default", [], 0
    while i < len(argv):
        if argv[i] in ("-n", "--namespace"):
            if i + 1 >= len(argv):
                raise Refused(f"error: flag needs an argument: {argv[i]}")
            namespace = argv[i + 1]
            i += 2
        elif argv[i].startswith("--namespace="):
            namespace = argv[i].split("=", 1)[1]
            i += 1
        else:
            rest.append(argv[i])
            i += 1
    if not rest:
        unsupported("kubectl without a command")
    verb, args = rest[0], rest[1:]
    commands = {"apply": apply, "create": create, "get": get, "delete": delete, "logs": logs}
    if verb not in commands:
        unsupported(" ".join(rest))
    commands[verb](namespace, args)


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except Refused as problem:
        print(problem, file=sys.stderr)
        sys.exit(1)
