#!/usr/bin/env python3
"""The run history in PostgreSQL (docs/history.md): a real temporary server on localhost with a
password-authenticated user; two `run`s recording into it at once, `history`, `compare`, `report`
and --mark-baseline reading from it, the password nowhere in what wavebench prints, writes or
records, a wrong password refused without echoing it, the installed wavebench finding the module
(and saying what is missing without it), and `merge` recording into it. Skipped (77) only where the PostgreSQL server's
programs are not installed. Usage: postgres_test.py BUILD_DIR SOURCE_DIR CMAKE"""
import glob
import json
import os
import pwd
import socket
import subprocess
import sys
import tempfile
import time
import unittest

import wbtest
from wbtest import BUILD, WB

CMAKE = wbtest.ARGS[0]
MODULE = os.path.join(BUILD, "lib", "libwavebench_history_postgres.so")
PASSWORD = "Pw-7q2Zx9kLm4"  # unique: searched for in everything wavebench prints and writes
USER = "wbtest"
TMP = None
SERVER = {}  # bin, data, port, url
SEEN = []  # every stdout and stderr of wavebench


def pg_bin():
    """The newest installed server's programs folder, or None."""
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda d: float(d.split("/")[-2]))
    dirs = [d for d in dirs if os.access(os.path.join(d, "initdb"), os.X_OK)
            and os.access(os.path.join(d, "pg_ctl"), os.X_OK)]
    return dirs[-1] if dirs else None


def as_server(cmd, **kw):
    """PostgreSQL refuses to run as root: as the postgres user there (or nobody)."""
    if os.geteuid() == 0:
        cmd = ["runuser", "-u", SERVER["user"], "--", *cmd]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def url(password=PASSWORD, db="wavebench"):
    auth = USER + (":" + password if password is not None else "")
    return "postgresql://%s@localhost:%d/%s" % (auth, SERVER["port"], db)


def psql(sql, db="wavebench"):
    p = subprocess.run([os.path.join(SERVER["bin"], "psql"), "-X", "-At", "-h", "localhost", "-p", str(SERVER["port"]),
                        "-U", USER, "-d", db, "-c", sql], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, PGPASSWORD=PASSWORD))
    assert p.returncode == 0, p.stderr
    return p.stdout


def wb(*args, db=None, timeout=300, **kw):
    """wavebench on the test's server (or `db`) without the user's PostgreSQL settings; its output kept in SEEN."""
    p = wbtest.wb(*args, db=db if db is not None else url(), unset=("PGPASSWORD", "PGPASSFILE", "XDG_DATA_HOME"),
                  cwd=TMP.name, timeout=timeout, **kw)
    SEEN.append((args, p.stdout + p.stderr))
    return p


def run_cmd(out, *args):
    return [WB, "run", os.path.join(TMP.name, "tiny.toml"), "--platform", "cpu", "--no-ceilings",
            "--out", os.path.join(TMP.name, out), *args]


def listed(**kw):
    p = wb("history", "--json", **kw)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def setUpModule():
    global TMP
    SERVER["bin"] = pg_bin()
    if not SERVER["bin"]:
        print("skipped: no PostgreSQL server programs (/usr/lib/postgresql/*/bin/initdb; Debian: apt-get install "
              "postgresql)")
        sys.exit(77)
    # As root, in /tmp: the server's user must reach it (TMPDIR may be root's own 0700 folder).
    TMP = tempfile.TemporaryDirectory(prefix="wavebench-pg-", dir="/tmp" if os.geteuid() == 0 else None)
    # Cleanups run even where setUpModule fails (tearDownModule would not), the server's stop first.
    unittest.addModuleCleanup(TMP.cleanup)
    os.chmod(TMP.name, 0o755)
    data, sock = os.path.join(TMP.name, "data"), os.path.join(TMP.name, "sock")
    os.mkdir(sock)
    os.mkdir(data, 0o700)
    pwfile = os.path.join(TMP.name, "pw")
    with open(pwfile, "w") as f:
        f.write(PASSWORD + "\n")
    SERVER["user"] = next((u for u in ("postgres", "nobody") if u in {p.pw_name for p in pwd.getpwall()}), None)
    if os.geteuid() == 0:
        owner = pwd.getpwnam(SERVER["user"])
        for path in (data, sock, pwfile):
            os.chown(path, owner.pw_uid, owner.pw_gid)
        os.chmod(pwfile, 0o600)
    p = as_server([os.path.join(SERVER["bin"], "initdb"), "-D", data, "-U", USER, "--pwfile", pwfile,
                   "--auth=scram-sha-256", "-E", "UTF8", "--no-sync"])
    assert p.returncode == 0, "initdb failed: " + p.stdout + p.stderr
    os.remove(pwfile)
    SERVER["port"] = free_port()
    SERVER["data"] = data
    unittest.addModuleCleanup(stop_server)
    p = as_server([os.path.join(SERVER["bin"], "pg_ctl"), "-D", data, "-l", os.path.join(data, "log"), "-w",
                   "-o", "-p %d -k %s -c listen_addresses=localhost -c fsync=off" % (SERVER["port"], sock), "start"])
    if p.returncode != 0:
        log = open(os.path.join(data, "log")).read() if os.path.exists(os.path.join(data, "log")) else ""
        raise AssertionError("the PostgreSQL server did not start: " + p.stdout + p.stderr + log)
    psql("CREATE DATABASE wavebench", db="postgres")

    with open(os.path.join(TMP.name, "tiny.toml"), "w") as f:
        f.write('[suite]\nname = "tiny"\nrepetitions = 5\nwarmup = 1\n\n'
                '[[benchmark]]\nfamily = "reduce"\nvariants = ["tree", "atomic"]\nn = [1000]\n')
    # Two machines of a fleet recording at once into a new database: the schema made once, two runs.
    # The URL with the password on the command line, as a user may well give it.
    e = wbtest.environment()
    procs = [subprocess.Popen(run_cmd("r%d.json" % i, "--db", url()), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, cwd=TMP.name, env=e) for i in (1, 2)]
    for p in procs:
        out, err = p.communicate(timeout=300)
        SEEN.append(("run", out + err))
        assert p.returncode == 0, out + err
        assert "history: run " in out, out + err


def stop_server():
    if SERVER.get("data"):
        as_server([os.path.join(SERVER["bin"], "pg_ctl"), "-D", SERVER["data"], "-m", "immediate", "-w", "stop"])


class Postgres(unittest.TestCase):
    def test_1_both_runs_listed(self):
        runs = listed()
        self.assertEqual(len(runs), 2)
        self.assertEqual(sorted(r["id"] for r in runs), [1, 2])
        self.assertTrue(all(r["suite"] == "tiny" and r["configs"] == 2 and r["complete"] for r in runs))
        self.assertEqual(psql("SELECT count(*) FROM results").strip(), "4")  # a row per result
        self.assertEqual(psql("SELECT version FROM wavebench_schema").strip(), "1")
        p = wb("history")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("tiny", p.stdout)
        # --db wins over WAVEBENCH_DB.
        p = wb("history", "--json", "--db", url(), db=os.path.join(TMP.name, "other.db"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(json.loads(p.stdout)), 2)

    def test_2_compare_by_ids_and_names(self):
        p = wb("compare", "1", "2", "--format", "json")
        self.assertIn(p.returncode, (0, 1), p.stderr)
        out = json.loads(p.stdout)
        self.assertEqual((out["base"]["id"], out["new"]["id"]), (1, 2))
        p = wb("compare", "latest", "previous", "--format", "json", "--db", url())
        self.assertIn(p.returncode, (0, 1), p.stderr)
        out = json.loads(p.stdout)
        self.assertEqual((out["base"]["id"], out["new"]["id"]), (2, 1))

    def test_3_report(self):
        page = os.path.join(TMP.name, "page.html")
        p = wb("report", "previous", "latest", "-o", page)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(page) as f:
            self.assertIn("tiny", f.read())

    def test_4_mark_baseline(self):
        p = wb("history", "--mark-baseline", "1")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual([r["id"] for r in listed() if r["baseline"]], [1])
        p = wb("history", "--mark-baseline", "2")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("in place of run 1", p.stdout)
        self.assertEqual([r["id"] for r in listed() if r["baseline"]], [2])
        p = wb("compare", "baseline", "1", "--format", "json")
        self.assertIn(p.returncode, (0, 1), p.stderr)
        self.assertEqual(json.loads(p.stdout)["base"]["id"], 2)
        p = wb("history", "--unmark-baseline", "2")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual([r["id"] for r in listed() if r["baseline"]], [])
        # Marks from several processes at once: each one transaction, one baseline in the end.
        e = dict(os.environ, WAVEBENCH_DB=url())
        procs = [subprocess.Popen([WB, "history", "--mark-baseline", str(1 + i % 2)], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, env=e) for i in range(6)]
        for p in procs:
            out, err = p.communicate(timeout=120)
            SEEN.append(("mark", out + err))
            self.assertEqual(p.returncode, 0, err)
        self.assertEqual(len([r for r in listed() if r["baseline"]]), 1)
        p = wb("history", "--unmark-baseline", str([r["id"] for r in listed() if r["baseline"]][0]))
        self.assertEqual(p.returncode, 0, p.stderr)
        p = wb("history", "--mark-baseline", "99")
        self.assertEqual(p.returncode, 2)
        self.assertIn("no run 99", p.stderr)

    def test_5_password_from_the_environment(self):
        # The recommended way: no password in the URL at all (PGPASSWORD, or ~/.pgpass).
        self.assertEqual(len(listed(db=url(password=None), env={"PGPASSWORD": PASSWORD})), 2)
        pgpass = os.path.join(TMP.name, "pgpass")
        with open(pgpass, "w") as f:
            f.write("localhost:%d:wavebench:%s:%s\n" % (SERVER["port"], USER, PASSWORD))
        os.chmod(pgpass, 0o600)
        self.assertEqual(len(listed(db=url(password=None), env={"PGPASSFILE": pgpass})), 2)

    def test_6_wrong_password_not_echoed(self):
        wrong = "Wr0ng-Secret-55x"
        for args in (("history",), ("compare", "latest", "previous")):
            p = wb(*args, db=url(password=wrong))
            self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
            self.assertIn("password authentication failed", p.stderr)
            self.assertIn("postgresql://%s:***@localhost" % USER, p.stderr)
            self.assertNotIn(wrong, p.stdout + p.stderr)
        print(p.stderr, file=sys.stderr)  # for the log: what a user sees
        # --db on the command line: not recorded, the run still written, the password in no output.
        p = subprocess.run(run_cmd("wrong.json", "--db", url(password=wrong)), capture_output=True, text=True,
                           cwd=TMP.name, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("was not recorded", p.stderr)
        with open(os.path.join(TMP.name, "wrong.json")) as f:
            self.assertNotIn(wrong, p.stdout + p.stderr + f.read())

    def test_7_password_nowhere(self):
        # Not in the results files: their command line has it redacted.
        for name in ("r1.json", "r2.json"):
            with open(os.path.join(TMP.name, name)) as f:
                text = f.read()
            self.assertNotIn(PASSWORD, text)
            self.assertIn("postgresql://%s:***@localhost" % USER, json.loads(text)["command"])
        # Not in the history: the stored documents, every column.
        stored = psql("SELECT r::text FROM runs r") + psql("SELECT r::text FROM results r")
        self.assertIn("tiny", stored)
        self.assertNotIn(PASSWORD, stored)
        # Not in anything wavebench printed.
        for args, text in SEEN:
            self.assertNotIn(PASSWORD, text, args)
        with open(os.path.join(TMP.name, "page.html")) as f:  # test_3's
            self.assertNotIn(PASSWORD, f.read())

    def test_8_binary_without_libpq_and_installed_module(self):
        needed = subprocess.run(["readelf", "-d", WB], capture_output=True, text=True).stdout
        self.assertNotIn("libpq", needed)
        self.assertTrue(os.path.exists(MODULE), MODULE + " is not built")
        prefix = os.path.join(TMP.name, "prefix")
        p = subprocess.run([CMAKE, "--install", BUILD, "--prefix", prefix], capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        installed = os.path.join(prefix, "bin", "wavebench")
        self.assertEqual(len(json.loads(wb("history", "--json", exe=installed).stdout)), 2)
        # Without the module: a clear error that says what to install.
        os.remove(os.path.join(prefix, "lib", "wavebench", "lib", os.path.basename(MODULE)))
        p = wb("history", exe=installed)
        self.assertEqual(p.returncode, 2)
        self.assertIn("PostgreSQL history is not built here", p.stderr)
        self.assertIn("libpq-dev", p.stderr)

    def test_9_merge_records(self):
        # Shards of one run, written anywhere (a GPU machine without libpq: --no-history), merged
        # and recorded into the fleet's database.
        shards = []
        for i in (1, 2):
            shards.append(os.path.join(TMP.name, "shard%d.json" % i))
            p = subprocess.run(run_cmd("shard%d.json" % i, "--shard", "%d/2" % i, "--no-history"),
                               capture_output=True, text=True, cwd=TMP.name, timeout=300)
            self.assertEqual(p.returncode, 0, p.stderr)
        p = wb("merge", *shards, "-o", os.path.join(TMP.name, "merged.json"), "--db", url())
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("history: run 3", p.stdout)
        runs = listed()
        self.assertEqual([r["id"] for r in runs], [3, 2, 1])
        self.assertEqual(runs[0]["configs"], 2)
        for args, text in SEEN:
            self.assertNotIn(PASSWORD, text, args)

    def test_9b_hostile_objects_refused(self):
        # Each planted in turn on wavebench's tables: every command refuses the history, naming it.
        psql("CREATE FUNCTION wb_spin() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(3600); "
             "RETURN NEW; END $$")
        for plant, named, remove in (
                ("CREATE TRIGGER spin AFTER INSERT ON runs FOR EACH ROW EXECUTE FUNCTION wb_spin()",
                 "trigger spin on runs", "DROP TRIGGER spin ON runs"),
                ("CREATE RULE keep AS ON INSERT TO runs DO ALSO UPDATE runs SET document = NEW.document "
                 "WHERE baseline", "rule keep on runs", "DROP RULE keep ON runs"),
                ("ALTER TABLE results ENABLE ROW LEVEL SECURITY", "row security on results",
                 "ALTER TABLE results DISABLE ROW LEVEL SECURITY"),
                ("CREATE TABLE more_runs () INHERITS (runs)", "inheritor more_runs on runs", "DROP TABLE more_runs")):
            psql(plant)
            try:
                for args in (("history",), ("compare", "latest", "previous"), ("history", "--mark-baseline", "1"),
                             ("merge", os.path.join(TMP.name, "shard1.json"), "-o",
                              os.path.join(TMP.name, "hostile.json"))):
                    p = wb(*args, timeout=120)
                    self.assertEqual(p.returncode, 2, "%s %s: %s" % (plant, args, p.stdout + p.stderr))
                    self.assertIn(named, p.stderr)
                p = subprocess.run(run_cmd("hostile.json", "--db", url()), capture_output=True, text=True,
                                   cwd=TMP.name, timeout=120)
                SEEN.append(("run hostile", p.stdout + p.stderr))
                self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
                self.assertIn(named, p.stderr)
            finally:
                psql(remove)
        self.assertEqual(len(listed()), 3)

    def test_9c_statement_timeout(self):
        # A session that holds runs locked: a statement waits for it no longer than its deadline.
        holder = subprocess.Popen([os.path.join(SERVER["bin"], "psql"), "-X", "-h", "localhost", "-p",
                                   str(SERVER["port"]), "-U", USER, "-d", "wavebench", "-c",
                                   "BEGIN; LOCK TABLE runs IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(60); COMMIT;"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  env=dict(os.environ, PGPASSWORD=PASSWORD))
        try:
            for _ in range(300):
                if psql("SELECT count(*) FROM pg_locks WHERE relation = 'runs'::regclass AND granted AND "
                        "mode = 'AccessExclusiveLock'").strip() == "1":
                    break
                time.sleep(0.1)
            start = time.monotonic()
            p = wb("history", env={"WAVEBENCH_DB_TIMEOUT": "1"}, timeout=50)
            self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
            self.assertIn("ran longer than 1 s", p.stderr)
            self.assertIn("postgresql://%s:***@localhost" % USER, p.stderr)
            self.assertLess(time.monotonic() - start, 30)
        finally:
            holder.kill()
            holder.wait()
            # Its server process sleeps on, holding the lock, unless ended.
            psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(60)%' "
                 "AND pid <> pg_backend_pid()")
            for _ in range(300):
                if psql("SELECT count(*) FROM pg_locks WHERE relation = 'runs'::regclass AND "
                        "mode = 'AccessExclusiveLock'").strip() == "0":
                    break
                time.sleep(0.1)

    def test_9d_password_with_spaces_and_quotes(self):
        # libpq takes a space and quotes in a URL's password as they are.
        secret = "Sp ace'q\"x-7"
        psql("CREATE ROLE wbsp LOGIN PASSWORD 'Sp ace''q\"x-7'; GRANT ALL ON ALL TABLES IN SCHEMA public TO wbsp; "
             "GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO wbsp")
        db = "postgresql://wbsp:%s@localhost:%d/wavebench" % (secret, SERVER["port"])
        p = subprocess.run(run_cmd("space.json", "--db", db), capture_output=True, text=True, cwd=TMP.name,
                           timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("history: run", p.stdout, p.stderr)
        seen = [p.stdout, p.stderr]
        with open(os.path.join(TMP.name, "space.json")) as f:
            seen.append(f.read())
        self.assertIn("postgresql://wbsp:***@localhost", json.loads(seen[-1])["command"])
        for args in (("history",), ("compare", "999", "latest"), ("compare", db, "latest")):
            q = wb(*args, db=db)
            seen += [q.stdout, q.stderr]
            if args[1:2] == ("999",):
                self.assertIn("no run 999 in the history (postgresql://wbsp:***@localhost", q.stderr)
        seen.append(psql("SELECT r::text FROM runs r"))
        for text in seen:
            for part in ("ace'q", 'q"x-7'):
                self.assertNotIn(part, text)

    def test_9e_document_nested_too_deep(self):
        deep = psql("INSERT INTO runs (suite, suite_file, device, arch, platform, toolchain, tool_version, started, "
                    "recorded, complete, configs, verified, failed, errors, crashed, timeouts, skipped, document) "
                    "SELECT suite, suite_file, device, arch, platform, toolchain, tool_version, started, recorded, "
                    "complete, configs, verified, failed, errors, crashed, timeouts, skipped, replace(document, "
                    "'\"params\":{', '\"params\":{\"deep\":' || repeat('[', 100000) || repeat(']', 100000) || ',') "
                    "FROM runs WHERE id = 1 RETURNING id").split()[0]
        for args in (("compare", "1", deep), ("report", deep, "-o", os.path.join(TMP.name, "deep.html"))):
            p = wb(*args)
            self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
            self.assertIn("nested deeper than 256", p.stderr)
        psql("DELETE FROM runs WHERE id = %s" % deep)


if __name__ == "__main__":
    wbtest.main()
