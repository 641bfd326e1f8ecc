#!/usr/bin/env python3
"""A fake `aws` for deploy/check-aws-batch.sh: just enough of AWS Batch to run the nightly
driver (deploy/nightly.sh aws-batch ...) end to end on one machine, with no account at all.

It implements what the driver calls, and nothing more, so that a new call in the driver shows
up as a failure here ("fake aws: unsupported: ...", exit 255) instead of passing unnoticed:

  batch submit-job --job-name N --job-queue Q --job-definition D [--array-properties size=S]
                   --parameters JSON --query jobId --output text
  batch describe-jobs --jobs ID... --query Q --output text, Q one of
                   'jobs[].[jobId,status]'  'jobs[0].container.exitCode'
                   'jobs[0].container.logStreamName'  'jobs[0].attempts[].container.logStreamName'
  batch terminate-job --job-id ID --reason R
  logs get-log-events --log-group-name /aws/batch/job --log-stream-name S
                   --query 'events[].message' --output text

A job is run as Batch would: a background process (this file, --run-job) starts its container
(an array job: one child per index, ID:0 … ID:S-1, AWS_BATCH_JOB_ARRAY_INDEX set, up to
FAKE_AWS_PARALLEL at once), the job definition's command with every Ref::name replaced by the
job's parameter (or the definition's default), as a local process. A container that exits
non-zero is judged by the definition's retryStrategy (evaluateOnExit in order: onExitCode,
onReason "*"; then attempts), killed by a signal exits 128 + the signal. An array job is
SUCCEEDED when every child is, FAILED when every child ended and one failed. A job describe
shows before it ends is SUBMITTED, RUNNABLE or RUNNING. terminate-job stops the job and its
children (their containers are killed) and fails them. Logs are one stream per attempt.

Environment:
  FAKE_AWS_STATE        the folder holding the account (required): jobs/<id>.json,
                        logs/<stream>.log, calls.log every call
  FAKE_AWS_DEFINITIONS  the folder of job definitions, as `register-job-definition
                        --cli-input-json` takes them (their jobDefinitionName is the name)
  FAKE_AWS_PATH         the containers' PATH (default /usr/local/bin:/usr/bin:/bin)
  FAKE_AWS_PARALLEL     children of an array at once (default 4)
"""

import contextlib
import fcntl
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid

STATE = os.environ.get("FAKE_AWS_STATE", "")


class Unsupported(Exception):
    pass


def path(*parts):
    return os.path.join(STATE, *parts)


@contextlib.contextmanager
def locked():
    with open(path("lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def read_job(job_id):
    with open(path("jobs", job_id + ".json")) as f:
        return json.load(f)


def write_job(job):
    file = path("jobs", job["jobId"] + ".json")
    with open(file + ".tmp", "w") as f:
        json.dump(job, f, indent=1)
    os.replace(file + ".tmp", file)


def definition(name):
    folder = os.environ.get("FAKE_AWS_DEFINITIONS", "")
    for file in sorted(os.listdir(folder)):
        if file.endswith(".json"):
            with open(os.path.join(folder, file)) as f:
                found = json.load(f)
            if found.get("jobDefinitionName") == name:
                return found
    raise Unsupported(f"no job definition named {name!r} in FAKE_AWS_DEFINITIONS")


def options(words, flags=()):
    """--name value pairs, and the flags given without a value."""
    found, rest = {}, list(words)
    while rest:
        word = rest.pop(0)
        if not word.startswith("--"):
            raise Unsupported(f"argument {word!r}")
        if word in flags:
            found[word] = True
        elif word == "--jobs":
            found[word] = []
            while rest and not rest[0].startswith("--"):
                found[word].append(rest.pop(0))
        else:
            if not rest:
                raise Unsupported(f"{word} without a value")
            found[word] = rest.pop(0)
    return found


def submit(args):
    o = options(args)
    if o.get("--query") != "jobId" or o.get("--output") != "text":
        raise Unsupported("submit-job without --query jobId --output text")
    for required in ("--job-name", "--job-queue", "--job-definition", "--parameters"):
        if required not in o:
            raise Unsupported(f"submit-job without {required}")
    found = definition(o["--job-definition"])
    parameters = dict(found.get("parameters", {}))
    parameters.update(json.loads(o["--parameters"]))
    size = None
    if "--array-properties" in o:
        key, _, value = o["--array-properties"].partition("=")
        if key != "size" or not value.isdigit() or not 2 <= int(value) <= 10000:
            raise Unsupported(f"--array-properties {o['--array-properties']} (Batch takes size=2..10000)")
        size = int(value)
    job = {"jobId": str(uuid.uuid4()), "jobName": o["--job-name"], "jobQueue": o["--job-queue"],
           "jobDefinition": o["--job-definition"], "parameters": parameters, "status": "SUBMITTED",
           "createdAt": int(time.time() * 1000)}
    if size:
        job["arrayProperties"] = {"size": size}
        job["children"] = [{"jobId": f"{job['jobId']}:{i}", "status": "SUBMITTED", "attempts": []}
                           for i in range(size)]
    else:
        job["attempts"] = []
    with locked():
        write_job(job)
    err = open(path("runner-" + job["jobId"] + ".log"), "w")
    subprocess.Popen([sys.executable, os.path.abspath(__file__), "--run-job", job["jobId"]],
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
    print(job["jobId"])


def find(job_id):
    """The job or array child named `job_id`, with the record that holds it."""
    parent, _, index = job_id.partition(":")
    job = read_job(parent)
    if index:
        return job, job["children"][int(index)]
    return job, job


def describe(args):
    o = options(args)
    if o.get("--output") != "text" or "--jobs" not in o:
        raise Unsupported("describe-jobs without --jobs and --output text")
    query = o.get("--query")
    with locked():
        entries = [find(i) for i in o["--jobs"]]
    if query == "jobs[].[jobId,status]":
        for _, entry in entries:
            print(f"{entry['jobId']}\t{entry['status']}")
    elif query in ("jobs[0].container.exitCode", "jobs[0].container.logStreamName"):
        attempts = entries[0][1].get("attempts", [])
        key = "exitCode" if query.endswith("exitCode") else "logStreamName"
        value = attempts[-1]["container"].get(key) if attempts else None
        print("None" if value is None else value)
    elif query == "jobs[0].attempts[].container.logStreamName":
        streams = [a["container"]["logStreamName"] for a in entries[0][1].get("attempts", [])]
        print("\t".join(streams))
    else:
        raise Unsupported(f"describe-jobs --query {query!r}")


def terminate(args):
    o = options(args)
    if "--job-id" not in o or "--reason" not in o:
        raise Unsupported("terminate-job without --job-id and --reason")
    with locked():
        job = read_job(o["--job-id"])
        job["terminate"] = o["--reason"]
        write_job(job)


def get_log_events(args):
    o = options(args)
    if o.get("--log-group-name") != "/aws/batch/job" or o.get("--query") != "events[].message" \
            or o.get("--output") != "text":
        raise Unsupported("get-log-events other than of /aws/batch/job, --query events[].message --output text")
    with open(path("logs", o["--log-stream-name"].replace("/", "_") + ".log")) as f:
        sys.stdout.write(f.read())


def retry_action(found, code):
    for rule in found.get("retryStrategy", {}).get("evaluateOnExit", []):
        if "onExitCode" in rule and rule["onExitCode"] == str(code):
            return rule["action"]
        if rule.get("onReason") == "*":
            return rule["action"]
    return "RETRY"


class Runner:
    """Runs one submitted job to its end, as Batch's scheduler would."""

    def __init__(self, job_id):
        self.job_id = job_id
        self.lock = threading.Lock()
        self.processes = {}
        self.found = definition(read_job(job_id)["jobDefinition"])

    def update(self, change):
        with locked():
            job = read_job(self.job_id)
            change(job)
            write_job(job)
            return job

    def terminated(self):
        with locked():
            return read_job(self.job_id).get("terminate")

    def run_container(self, index):
        """Runs the container of the job (or child `index`) until it succeeds or fails for good."""
        attempts = int(self.found.get("retryStrategy", {}).get("attempts", 1))
        container = self.found["containerProperties"]
        for attempt in range(attempts):
            if self.terminated():
                return 143
            def record(job, status):
                entry = job if index is None else job["children"][index]
                entry["status"] = status
                return entry
            stream = f"{self.found['jobDefinitionName']}/default/{uuid.uuid4().hex}"
            parameters = read_job(self.job_id)["parameters"]
            words = []
            for word in container["command"]:
                if word.startswith("Ref::"):
                    word = parameters.get(word[5:], word)
                words.append(word)
            env = {"PATH": os.environ.get("FAKE_AWS_PATH", "/usr/local/bin:/usr/bin:/bin"),
                   "AWS_BATCH_JOB_ID": self.job_id if index is None else f"{self.job_id}:{index}",
                   "AWS_BATCH_JOB_ATTEMPT": str(attempt + 1), "AWS_BATCH_JQ_NAME": "fake"}
            if index is not None:
                env["AWS_BATCH_JOB_ARRAY_INDEX"] = str(index)
            log_file = path("logs", stream.replace("/", "_") + ".log")
            self.update(lambda job: record(job, "RUNNING"))
            with open(log_file, "w") as log:
                process = subprocess.Popen(words, env=env, cwd="/", stdin=subprocess.DEVNULL, stdout=log,
                                           stderr=subprocess.STDOUT, start_new_session=True)
            with self.lock:
                self.processes[index] = process
            code = process.wait()
            with self.lock:
                self.processes.pop(index, None)
            code = 128 - code if code < 0 else code
            def ended(job):
                entry = record(job, "RUNNING")
                entry.setdefault("attempts", []).append(
                    {"container": {"exitCode": code, "logStreamName": stream}})
            self.update(ended)
            if code == 0:
                self.update(lambda job: record(job, "SUCCEEDED"))
                return 0
            if retry_action(self.found, code) == "EXIT" or self.terminated():
                break
        self.update(lambda job: record(job, "FAILED"))
        return code

    def watch_termination(self):
        while not self.done:
            if self.terminated():
                with self.lock:
                    for process in self.processes.values():
                        with contextlib.suppress(ProcessLookupError):
                            os.killpg(process.pid, signal.SIGKILL)
            time.sleep(0.2)

    def run(self):
        self.done = False
        threading.Thread(target=self.watch_termination, daemon=True).start()
        job = self.update(lambda job: job.update(status="RUNNING"))
        size = job.get("arrayProperties", {}).get("size")
        if size is None:
            code = self.run_container(None)
            status = "SUCCEEDED" if code == 0 else "FAILED"
        else:
            queue = list(range(size))
            def worker():
                while True:
                    with self.lock:
                        if not queue:
                            return
                        index = queue.pop(0)
                    if self.terminated():
                        self.update(lambda job: job["children"][index].update(status="FAILED"))
                        continue
                    self.run_container(index)
            workers = [threading.Thread(target=worker) for _ in range(int(os.environ.get("FAKE_AWS_PARALLEL", "4")))]
            for w in workers:
                w.start()
            for w in workers:
                w.join()
            children = read_job(self.job_id)["children"]
            status = "SUCCEEDED" if all(c["status"] == "SUCCEEDED" for c in children) else "FAILED"
        self.done = True
        self.update(lambda job: job.update(status=status))


def main(argv):
    if len(argv) >= 2 and argv[0] == "--run-job":
        Runner(argv[1]).run()
        return 0
    if not STATE:
        print("fake aws: FAKE_AWS_STATE is not set", file=sys.stderr)
        return 255
    os.makedirs(path("jobs"), exist_ok=True)
    os.makedirs(path("logs"), exist_ok=True)
    with open(path("calls.log"), "a") as calls:
        calls.write(" ".join(argv) + "\n")
    commands = {("batch", "submit-job"): submit, ("batch", "describe-jobs"): describe,
                ("batch", "terminate-job"): terminate, ("logs", "get-log-events"): get_log_events}
    try:
        command = commands.get(tuple(argv[:2]))
        if not command:
            raise Unsupported(" ".join(argv[:2]))
        command(argv[2:])
    except Unsupported as problem:
        print(f"fake aws: unsupported: {problem}", file=sys.stderr)
        return 255
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
