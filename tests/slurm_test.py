#!/usr/bin/env python3
"""tools/slurm on a real Slurm: a one-node cluster started here (munged, slurmctld and slurmd of
Debian's slurm-wlm and munge, every file of theirs in a temporary folder, on free ports), a suite
of 4 configurations submitted by tools/slurm/submit.sh as an array of 3 shards on the cpu platform
and a merge job after it. Checks that every array task left its shard, that the shards are the
unsharded run's configurations, that the merge job completed and recorded the whole run once in
the jobs' history; a second time with shard 2 failing on purpose, that the merge job still runs
(afterany) and refuses (exit 2), naming the missing shard; and a shard cancelled halfway
(scancel) keeps what it measured, which merges as an incomplete run (exit 1). The job folders and
the suites have spaces in their paths. Skipped (77), with the daemons' own words, only where they
cannot start.
Usage: slurm_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest

import wbtest
from wbtest import SOURCE, WB, load

SUBMIT = os.path.join(SOURCE, "tools", "slurm", "submit.sh")
ARRAY = os.path.join(SOURCE, "tools", "slurm", "wavebench-array.sh")
SHARDS = 3
JOB_TIMEOUT = 600  # seconds for both submissions to end

# Two problems of reduce (n = 1000, 4099), each with its two variants: 4 configurations, so one of
# the three shards is empty, which must merge like any other.
SUITE = """[suite]
name = "slurm-test"
repetitions = 2
warmup = 1
seed = 11

[[benchmark]]
family = "reduce"
variants = ["tree", "atomic"]
n = [1000, 4099]
"""

# 20 configurations of some 0.75 s each: long enough to be cancelled halfway.
LONG_SUITE = """[suite]
name = "slurm-cut"
repetitions = 20
warmup = 1
seed = 3

[[benchmark]]
family = "reduce"
variants = ["tree", "atomic"]
n = [100000, 200000, 300000, 400000, 500000, 600000, 700000, 800000, 900000, 1000000]
"""


class CannotStart(Exception):
    pass


def free_ports(count):
    socks = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def tail(path, lines=15):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except OSError as e:
        return f"({e})"


class Cluster:
    """munged, slurmctld and slurmd as children of this process, configured in DIR."""

    def __init__(self, root):
        self.dir = root
        self.procs = []
        self.host = subprocess.run(["hostname", "-s"], capture_output=True, text=True).stdout.strip() \
            or socket.gethostname().split(".")[0]
        self.conf = os.path.join(root, "slurm.conf")
        self.socket = os.path.join(root, "munge", "munge.socket")
        # No SLURM_* of a job this test may itself run in: sbatch would take them for options.
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM_", "SBATCH_", "SALLOC_"))}
        self.env["SLURM_CONF"] = self.conf

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def spawn(self, name, argv):
        log = open(self.path(name + ".out"), "w")
        p = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=self.env,
                             start_new_session=True)
        log.close()
        self.procs.append((name, p))
        return p

    def why(self, *logs):
        return "\n".join(f"--- {os.path.basename(l)}:\n{tail(l)}" for l in logs)

    def wait_for(self, what, check, logs, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for name, p in self.procs:
                if p.poll() is not None:
                    raise CannotStart(f"{name} exited {p.returncode} before {what}\n" + self.why(*logs))
            if check():
                return
            time.sleep(0.5)
        raise CannotStart(f"no {what} after {timeout} s\n" + self.why(*logs))

    def start(self):
        tools = ["munged", "munge", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "scontrol", "scancel"]
        found = {t: shutil.which(t) or shutil.which(t, path="/usr/sbin:/sbin:/usr/bin") for t in tools}
        missing = [t for t, p in found.items() if not p]
        if missing:
            raise CannotStart("not installed: " + ", ".join(missing) + " (apt-get install slurm-wlm munge)")
        os.makedirs(self.path("munge"), mode=0o700)
        for d in ("state", "spool"):
            os.makedirs(self.path(d))

        key = self.path("munge", "munge.key")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(key, 0o600)
        munged_log = self.path("munge", "munged.log")
        self.spawn("munged", [found["munged"], "--foreground", "--force", f"--socket={self.socket}",
                              f"--key-file={key}", f"--pid-file={self.path('munge', 'munged.pid')}",
                              f"--log-file={munged_log}", f"--seed-file={self.path('munge', 'munged.seed')}"])

        def munge_works():
            if not os.path.exists(self.socket):
                return False
            return subprocess.run([found["munge"], "-n", "-S", self.socket], capture_output=True).returncode == 0

        self.wait_for("munge socket", munge_works, [self.path("munged.out"), munged_log], timeout=20)

        ctld_port, slurmd_port = free_ports(2)
        user = "root" if os.geteuid() == 0 else subprocess.run(["id", "-un"], capture_output=True,
                                                               text=True).stdout.strip()
        conf = f"""# written by tests/slurm_test.py
ClusterName=wbtest
SlurmctldHost={self.host}(127.0.0.1)
SlurmUser={user}
SlurmdUser={user}
SlurmctldPort={ctld_port}
SlurmdPort={slurmd_port}
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={self.socket}
StateSaveLocation={self.path('state')}
SlurmdSpoolDir={self.path('spool')}
SlurmctldPidFile={self.path('slurmctld.pid')}
SlurmdPidFile={self.path('slurmd.pid')}
SlurmctldLogFile={self.path('slurmctld.log')}
SlurmdLogFile={self.path('slurmd.log')}
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
MinJobAge=3600
SlurmdParameters=config_overrides
NodeName={self.host} NodeAddr=127.0.0.1 CPUs={os.cpu_count() or 1} RealMemory=256 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
"""
        with open(self.conf, "w") as f:
            f.write(conf)
        self.spawn("slurmctld", [found["slurmctld"], "-D", "-i", "-f", self.conf])
        self.spawn("slurmd", [found["slurmd"], "-D", "-f", self.conf, "-N", self.host])

        def idle():
            r = self.slurm("sinfo", "-h", "-N", "-o", "%T")
            return r.returncode == 0 and r.stdout.strip() == "idle"

        self.wait_for("idle node in sinfo", idle,
                      [self.path("slurmctld.out"), self.path("slurmctld.log"), self.path("slurmd.out"),
                       self.path("slurmd.log")], timeout=60)

    def slurm(self, *argv, env=None, timeout=60):
        return subprocess.run(list(argv), capture_output=True, text=True, env=dict(self.env, **(env or {})),
                              timeout=timeout)

    def job(self, job_id):
        """{field: value} of each job (each array task) of job_id, as scontrol shows them."""
        r = self.slurm("scontrol", "show", "job", "-o", str(job_id))
        assert r.returncode == 0, r.stderr
        jobs = []
        for line in r.stdout.splitlines():
            jobs.append(dict(re.findall(r"(\w+)=(\S*)", line)))
        return jobs

    def stop(self, job_ids=()):
        for j in job_ids:
            self.slurm("scancel", str(j))
        for name, p in reversed(self.procs):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()


def key(res):
    return (res["family"], res["variant"], json.dumps(res["params"], sort_keys=True))


def wb(*args, db):
    """wavebench in the test's folder with its own cache (both made by main) and the database `db`."""
    return wbtest.wb(*args, db=db, cwd=TMP, cache=CACHE)


def submit(out, db, wavebench=WB, suite=None, shards=SHARDS):
    r = CLUSTER.slurm(SUBMIT, suite or SUITE_FILE, "--shards", str(shards), "--platform", "cpu", "--out", out,
                      "--wavebench", wavebench, "--", "--no-ceilings",
                      env={"WAVEBENCH_DB": db, "WAVEBENCH_CACHE_DIR": CACHE})
    assert r.returncode == 0, f"submit.sh exited {r.returncode}\n{r.stdout}{r.stderr}"
    array = re.search(r"^array job: (\d+)", r.stdout, re.M)
    merge = re.search(r"^merge job: (\d+)", r.stdout, re.M)
    assert array and merge, r.stdout
    return array.group(1), merge.group(1)


def setUpModule():
    global WHOLE, GOOD, BAD
    WHOLE = os.path.join(TMP, "whole.json")
    r = wb("run", SUITE_FILE, "--platform", "cpu", "--no-ceilings", "--out", WHOLE, db=os.path.join(TMP, "whole.db"))
    assert r.returncode == 0, r.stdout + r.stderr

    # A wavebench that fails shard 2 of 3 before it writes anything, as a node without the binary
    # would; the other shards run for real.
    failing = os.path.join(TMP, "failing wavebench")
    with open(failing, "w") as f:
        f.write("#!/bin/sh\n"
                "case \" $* \" in *' --shard 2/3 '*) echo 'shard 2 fails on purpose' >&2; exit 1 ;; esac\n"
                f"exec {shlex.quote(WB)} \"$@\"\n")
    os.chmod(failing, 0o755)

    GOOD = {"out": os.path.join(TMP, "jobs", "good run"), "db": os.path.join(TMP, "good history.db")}
    BAD = {"out": os.path.join(TMP, "jobs", "bad run"), "db": os.path.join(TMP, "bad history.db")}
    GOOD["array"], GOOD["merge"] = submit(GOOD["out"], GOOD["db"])
    BAD["array"], BAD["merge"] = submit(BAD["out"], BAD["db"], wavebench=failing)
    JOBS.extend([GOOD["array"], GOOD["merge"], BAD["array"], BAD["merge"]])

    # One shard of a longer suite, cancelled once it has started measuring: scancel's SIGTERM
    # makes wavebench stop after its current configuration and write what it has.
    long_suite = os.path.join(TMP, "long suite.toml")
    with open(long_suite, "w") as f:
        f.write(LONG_SUITE)
    CUT.update(out=os.path.join(TMP, "jobs", "cancelled run"), db=os.path.join(TMP, "cut history.db"))
    CUT["array"], CUT["merge"] = submit(CUT["out"], CUT["db"], suite=long_suite, shards=1)
    JOBS.extend([CUT["array"], CUT["merge"]])
    running = os.path.join(CUT["out"], ".shard-1-of-1.json.running")
    deadline = time.monotonic() + JOB_TIMEOUT
    def measuring():
        try:
            return bool(load(running)["results"])  # replaced by a rename: never half written
        except OSError:
            return False

    while not measuring():
        assert time.monotonic() < deadline, "the long shard never started:\n" + logs(CUT)
        time.sleep(0.2)
    c = CLUSTER.slurm("scancel", CUT["array"])
    assert c.returncode == 0, c.stderr

    while True:
        q = CLUSTER.slurm("squeue", "-h", "-o", "%i %T %r", "-j", ",".join(JOBS))
        if q.returncode == 0 and not q.stdout.strip():
            break
        assert time.monotonic() < deadline, f"jobs not done after {JOB_TIMEOUT} s:\n{q.stdout}{q.stderr}\n" + \
            CLUSTER.why(CLUSTER.path("slurmctld.log"), CLUSTER.path("slurmd.log"))
        time.sleep(1)


def logs(run):
    folder = os.path.join(run["out"], "logs")
    return "".join(f"--- {n}:\n{tail(os.path.join(folder, n), 40)}" for n in sorted(os.listdir(folder)))


class Submitted(unittest.TestCase):
    def test_every_array_task_completed_and_left_its_shard(self):
        tasks = CLUSTER.job(GOOD["array"])
        self.assertEqual(sorted(int(t["ArrayTaskId"]) for t in tasks), list(range(1, SHARDS + 1)))
        for t in tasks:
            self.assertEqual(t["JobState"], "COMPLETED", logs(GOOD))
            self.assertEqual(t["NumNodes"], "1")
        for i in range(1, SHARDS + 1):
            shard = load(os.path.join(GOOD["out"], f"shard-{i}-of-{SHARDS}.json"))["shard"]
            self.assertEqual((shard["index"], shard["count"]), (i, SHARDS))
            self.assertEqual(shard["plan_configs"], 4)
        self.assertEqual([n for n in os.listdir(GOOD["out"]) if n.startswith(".")], [], "a file left running")

    def test_the_shards_are_the_unsharded_run(self):
        whole = [key(r) for r in load(WHOLE)["results"]]
        self.assertEqual(len(whole), 4)
        shards = [key(r) for i in range(1, SHARDS + 1)
                  for r in load(os.path.join(GOOD["out"], f"shard-{i}-of-{SHARDS}.json"))["results"]]
        self.assertEqual(sorted(shards), sorted(whole))

    def test_the_merge_job_completed_and_merged_the_whole_run(self):
        [merge] = CLUSTER.job(GOOD["merge"])
        self.assertEqual((merge["JobState"], merge["ExitCode"]), ("COMPLETED", "0:0"), logs(GOOD))
        self.assertEqual(merge["Dependency"], "(null)")  # satisfied
        doc = load(os.path.join(GOOD["out"], "merged.json"))
        self.assertIsNone(doc["shard"])  # a whole run
        self.assertEqual(len(doc["merged_from"]), SHARDS)
        self.assertIs(doc["complete"], True)
        self.assertEqual([key(r) for r in doc["results"]], [key(r) for r in load(WHOLE)["results"]])
        self.assertTrue(all(r["status"] == "verified" for r in doc["results"]),
                        [(r["variant"], r["status"]) for r in doc["results"]])

    def test_the_jobs_history_has_the_merged_run_once(self):
        r = wb("history", "--json", db=GOOD["db"])
        self.assertEqual(r.returncode, 0, r.stderr)
        runs = json.loads(r.stdout)
        self.assertEqual(len(runs), 1, runs)
        self.assertEqual(runs[0]["configs"], 4)
        self.assertEqual(runs[0]["suite"], "slurm-test")


class AShardFails(unittest.TestCase):
    def test_the_failed_task_is_failed_and_the_others_left_their_shards(self):
        states = {int(t["ArrayTaskId"]): t["JobState"] for t in CLUSTER.job(BAD["array"])}
        self.assertEqual(states, {1: "COMPLETED", 2: "FAILED", 3: "COMPLETED"}, logs(BAD))
        self.assertFalse(os.path.exists(os.path.join(BAD["out"], f"shard-2-of-{SHARDS}.json")))
        self.assertIn("shard 2 fails on purpose", tail(os.path.join(BAD["out"], "logs", f"shard-2-of-{SHARDS}.out")))

    def test_the_merge_still_runs_and_refuses_naming_the_missing_shard(self):
        [merge] = CLUSTER.job(BAD["merge"])
        self.assertEqual((merge["JobState"], merge["ExitCode"]), ("FAILED", "2:0"), logs(BAD))
        log = tail(os.path.join(BAD["out"], "logs", "merge.out"), 40)
        self.assertIn(f"shard 2 of {SHARDS} missing", log)
        self.assertIn(f"shard 2 of {SHARDS} left no results", log)
        self.assertFalse(os.path.exists(os.path.join(BAD["out"], "merged.json")))
        self.assertFalse(os.path.exists(BAD["db"]) and json.loads(wb("history", "--json", db=BAD["db"]).stdout))


class AShardIsCancelled(unittest.TestCase):
    def test_the_cancelled_shard_keeps_what_it_measured_and_merges_as_incomplete(self):
        [task] = CLUSTER.job(CUT["array"])
        self.assertEqual(task["JobState"], "CANCELLED", logs(CUT))
        shard = load(os.path.join(CUT["out"], "shard-1-of-1.json"))
        self.assertIs(shard["complete"], False)
        self.assertEqual(shard.get("stopped_by"), "SIGTERM")
        self.assertTrue(0 < len(shard["results"]) < 20, len(shard["results"]))
        [merge] = CLUSTER.job(CUT["merge"])
        self.assertEqual((merge["JobState"], merge["ExitCode"]), ("FAILED", "1:0"), logs(CUT))
        merged = load(os.path.join(CUT["out"], "merged.json"))
        self.assertIs(merged["complete"], False)
        self.assertEqual(len(merged["results"]), len(shard["results"]))
        self.assertIn("incomplete", tail(os.path.join(CUT["out"], "logs", "merge.out"), 40))


class SubmitScript(unittest.TestCase):
    def dry(self, *args):
        r = CLUSTER.slurm(SUBMIT, SUITE_FILE, "--dry-run", "--wavebench", WB, *args)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout.splitlines()

    def test_a_gpu_per_shard_except_on_cpu(self):
        array, merge = self.dry("--platform", "nvidia", "--shards", "5")
        self.assertIn("--gres=gpu:1", array)
        self.assertIn("--array=1-5", array)
        self.assertNotIn("--gres", merge)
        self.assertIn("--dependency=afterany:ARRAY_JOB_ID", merge)
        array, _ = self.dry("--platform", "cpu")
        self.assertNotIn("--gres", array)
        array, _ = self.dry("--gres", "gpu:a100:1", "--partition", "gpu q")
        self.assertIn("--gres=gpu:a100:1", array)
        self.assertIn(r"--partition=gpu\ q", array)

    def test_bad_arguments_are_refused(self):
        for args in (["--shards", "0"], ["--shards", "x"], ["--bogus"]):
            r = CLUSTER.slurm(SUBMIT, SUITE_FILE, "--dry-run", "--wavebench", WB, *args)
            self.assertEqual(r.returncode, 2, args)
        r = CLUSTER.slurm(SUBMIT, os.path.join(TMP, "no such suite.toml"), "--dry-run", "--wavebench", WB)
        self.assertEqual(r.returncode, 2)
        self.assertIn("no suite file", r.stderr)


def main():
    global TMP, CACHE, SUITE_FILE, CLUSTER
    # Short, space-free: the daemons' paths go into slurm.conf (and munge's socket path is limited);
    # the jobs' folder and the suite below have spaces.
    TMP = tempfile.mkdtemp(prefix="wbslurm-")
    CACHE = os.path.join(TMP, "cache")
    SUITE_FILE = os.path.join(TMP, "slurm test suite.toml")
    with open(SUITE_FILE, "w") as f:
        f.write(SUITE)
    CLUSTER = Cluster(os.path.join(TMP, "cluster"))
    os.makedirs(CLUSTER.dir)
    try:
        try:
            CLUSTER.start()
        except CannotStart as e:
            print(f"skipped: the one-node Slurm cannot start here: {e}")
            return 77
        prog = unittest.main(argv=sys.argv[:1], verbosity=2, exit=False)
        return 0 if prog.result.wasSuccessful() else 1
    finally:
        CLUSTER.stop(JOBS)
        shutil.rmtree(TMP, ignore_errors=True)


JOBS = []
CUT = {}

if __name__ == "__main__":
    sys.exit(main())
