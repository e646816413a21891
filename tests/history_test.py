#!/usr/bin/env python3
"""The run history (docs/history.md): `run` records each run in an SQLite database, `history` lists
and marks them, `compare` takes latest/previous/baseline and ids; where the database is, and what
a bad one gives. Every database is a temporary one. Usage: history_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import sqlite3
import subprocess
import unittest

import wbtest
from wbtest import WB

TMP = wbtest.tempdir()
DB = os.path.join(TMP, "history.db")  # the database of the two runs every test starts from
SUITE = os.path.join(TMP, "tiny.toml")


# db=None: no WAVEBENCH_DB, for the default places (XDG_DATA_HOME, HOME) a test sets itself.
wb = wbtest.runner(db=DB, unset=("XDG_DATA_HOME",), cwd=TMP, timeout=300)


def run(out, *args, **kw):
    return wb("run", SUITE, "--platform", "cpu", "--no-ceilings", "--out", os.path.join(TMP, out), *args, **kw)


def listed(*args, db=DB):
    p = wb("history", "--json", *args, db=db)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def setUpModule():
    with open(SUITE, "w") as f:
        f.write('[suite]\nname = "tiny"\nrepetitions = 5\nwarmup = 1\n\n'
                '[[benchmark]]\nfamily = "reduce"\nvariants = ["tree", "atomic"]\nn = [1000]\n')
    for i in (1, 2):
        p = run("r%d.json" % i)
        assert p.returncode == 0, p.stdout + p.stderr
        assert "history: run %d " % i in p.stdout, p.stdout


def compare_exists():
    p = wb("compare", "--help")
    if p.returncode != 0:
        raise AssertionError("`wavebench compare` is not built: " + p.stderr)


class History(unittest.TestCase):
    def test_history_lists_both_runs_newest_first_with_filters(self):
        p = wb("history")
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = p.stdout.splitlines()
        self.assertIn("recorded", lines[0])
        self.assertEqual([l.split()[0] for l in lines[1:]], ["2", "1"])
        runs = listed()
        self.assertEqual([r["id"] for r in runs], [2, 1])
        for r in runs:
            self.assertEqual((r["suite"], r["platform"], r["configs"]), ("tiny", "cpu", 2))
            self.assertEqual(r["counts"]["verified"], 2)
            self.assertTrue(r["complete"])
            self.assertTrue(r["toolchain"] and r["tool_version"] and r["recorded"])
        device = runs[0]["device"]
        self.assertEqual(len(listed("--suite", "tiny")), 2)
        self.assertEqual(listed("--suite", "other"), [])
        self.assertEqual(len(listed("--device", device[1:6].lower())), 2)  # a substring, in any case
        self.assertEqual(listed("--device", "no such device"), [])
        self.assertEqual(len(listed("--platform", "cpu")), 2)
        self.assertEqual(listed("--platform", "nvidia"), [])
        self.assertEqual([r["id"] for r in listed("--limit", "1")], [2])
        p = wb("history", "--suite", "other")
        self.assertIn("no runs that match", p.stdout)

    def test_every_result_is_a_row_and_the_document_is_kept(self):
        with open(os.path.join(TMP, "r1.json")) as f:
            doc = json.load(f)
        db = sqlite3.connect(DB)
        self.assertEqual(db.execute("PRAGMA user_version").fetchone()[0], 1)
        self.assertEqual(db.execute("PRAGMA journal_mode").fetchone()[0], "wal")
        self.assertEqual(json.loads(db.execute("SELECT document FROM runs WHERE id = 1").fetchone()[0]), doc)
        rows = db.execute("SELECT family, variant, params, status, time_ms, samples_ms, wall_samples_ms FROM results "
                          "WHERE run_id = 1 ORDER BY position").fetchall()
        self.assertEqual(len(rows), len(doc["results"]))
        for row, r in zip(rows, doc["results"]):
            self.assertEqual(row[:2], (r["family"], r["variant"]))
            self.assertEqual(json.loads(row[2]), r["params"])
            self.assertEqual(row[3], r["status"])
            self.assertEqual(row[4], r["time_ms"])
            self.assertEqual(json.loads(row[5]), r["samples_ms"])
            self.assertEqual(json.loads(row[6]), r["wall_samples_ms"])
            self.assertGreaterEqual(len(r["samples_ms"]), 5)
        db.close()

    def test_no_history_records_nothing(self):
        db = os.path.join(TMP, "unused.db")
        p = run("nohist.json", "--no-history", "--db", db)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertFalse(os.path.exists(db))
        self.assertNotIn("history: run", p.stdout)
        self.assertEqual(len(listed()), 2)

    def test_compare_latest_previous(self):
        compare_exists()
        p = wb("compare", "latest", "previous", "--format", "json")
        self.assertIn(p.returncode, (0, 1), p.stderr)
        out = json.loads(p.stdout)
        self.assertEqual((out["base"]["id"], out["new"]["id"]), (2, 1))
        self.assertIn("latest", out["base"]["label"])
        self.assertIn("previous", out["new"]["label"])
        p = wb("compare", "1", "2", "--format", "json")
        self.assertIn(p.returncode, (0, 1), p.stderr)
        out = json.loads(p.stdout)
        self.assertEqual((out["base"]["id"], out["new"]["id"]), (1, 2))

    def test_baseline(self):
        compare_exists()
        p = wb("compare", "baseline", "latest")
        self.assertEqual(p.returncode, 2)
        self.assertIn("--mark-baseline", p.stderr)
        p = wb("history", "--mark-baseline", "1")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual([r["id"] for r in listed() if r["baseline"]], [1])
        self.assertRegex(wb("history").stdout, r"(?m)^ 1 .*baseline$")
        p = wb("compare", "baseline", "latest", "--format", "json")
        self.assertIn(p.returncode, (0, 1), p.stderr)
        out = json.loads(p.stdout)
        self.assertEqual((out["base"]["id"], out["new"]["id"]), (1, 2))
        self.assertIn("baseline", out["base"]["label"])
        p = wb("history", "--mark-baseline", "2")  # one baseline per suite, platform and device
        self.assertIn("in place of run 1", p.stdout)
        self.assertEqual([r["id"] for r in listed() if r["baseline"]], [2])
        p = wb("history", "--unmark-baseline", "2")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual([r["id"] for r in listed() if r["baseline"]], [])
        for flag in ("--mark-baseline", "--unmark-baseline"):
            p = wb("history", flag, "999")
            self.assertEqual(p.returncode, 2)
            self.assertIn("no run 999", p.stderr)

    def test_references_that_cannot_be_resolved(self):
        compare_exists()
        p = wb("compare", "999", "latest")
        self.assertEqual(p.returncode, 2)
        self.assertIn("no run 999", p.stderr)
        p = wb("compare", "no-such.json", "latest")
        self.assertEqual(p.returncode, 2)
        self.assertIn("no file no-such.json", p.stderr)
        self.assertIn("latest, previous or baseline", p.stderr)
        one = os.path.join(TMP, "one.db")
        self.assertEqual(run("one.json", db=one).returncode, 0)
        p = wb("compare", "previous", "latest", db=one)
        self.assertEqual(p.returncode, 2)
        self.assertIn("only one run of suite tiny", p.stderr)
        p = wb("compare", "latest", "previous", db=os.path.join(TMP, "none.db"))
        self.assertEqual(p.returncode, 2)
        self.assertIn("no runs yet", p.stderr)

    def test_a_corrupt_database_is_an_error_naming_it_and_run_still_writes_its_results(self):
        bad = os.path.join(TMP, "corrupt.db")
        with open(bad, "wb") as f:
            f.write(os.urandom(8192))
        p = wb("history", db=bad)
        self.assertEqual(p.returncode, 2)
        self.assertIn(bad, p.stderr)
        self.assertIn("not an SQLite database", p.stderr)
        p = wb("history", "--db", bad)
        self.assertEqual(p.returncode, 2)
        self.assertIn(bad, p.stderr)
        p = run("corrupt.json", "--db", bad)
        self.assertEqual(p.returncode, 0, p.stderr)  # recording is not the run
        self.assertIn("warning: the run was not recorded in the history DB", p.stderr)
        self.assertIn("the results are in " + os.path.join(TMP, "corrupt.json"), p.stderr)
        with open(os.path.join(TMP, "corrupt.json")) as f:
            self.assertEqual(len(json.load(f)["results"]), 2)
        other = os.path.join(TMP, "other.db")
        db = sqlite3.connect(other)
        db.execute("CREATE TABLE t (a)")
        db.commit()
        db.close()
        p = wb("history", db=other)
        self.assertEqual(p.returncode, 2)
        self.assertIn("of something else", p.stderr)
        newer = os.path.join(TMP, "newer.db")
        db = sqlite3.connect(newer)
        db.execute("PRAGMA user_version = 99")
        db.close()
        p = wb("history", db=newer)
        self.assertEqual(p.returncode, 2)
        self.assertIn("schema version 99", p.stderr)

    def test_processes_record_at_once(self):
        db = os.path.join(TMP, "together.db")
        env = wbtest.environment(db=db)
        procs = [subprocess.Popen([WB, "run", SUITE, "--platform", "cpu", "--no-ceilings", "--out",
                                   os.path.join(TMP, "together%d.json" % i)], env=env, cwd=TMP,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in range(4)]
        for p in procs:
            out, err = p.communicate(timeout=300)
            self.assertEqual(p.returncode, 0, out + err)
            self.assertNotIn("warning", err)
        self.assertEqual(sorted(r["id"] for r in listed(db=db)), [1, 2, 3, 4])

    def test_where_the_history_is(self):
        xdg = os.path.join(TMP, "xdg")
        p = run("xdg.json", db=None, env={"XDG_DATA_HOME": xdg})
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(listed(db=os.path.join(xdg, "wavebench", "history.db"))), 1)
        home = os.path.join(TMP, "home")
        p = run("home.json", db=None, env={"HOME": home})
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(listed(db=os.path.join(home, ".local", "share", "wavebench", "history.db"))), 1)
        flag = os.path.join(TMP, "flag.db")  # --db wins over WAVEBENCH_DB
        self.assertEqual(run("flag.json", "--db", flag).returncode, 0)
        self.assertEqual(len(listed(db=flag)), 1)
        self.assertEqual(len(listed()), 2)
        # A PostgreSQL URL where no server is (port 1): the run is written but not recorded, and no
        # message shows the password (tests/postgres_test.py has a real server).
        secret = "Hunter2-Secret-x9"
        for url in ("postgresql://wb:%s@127.0.0.1:1/wb" % secret, "postgres://wb:%s@127.0.0.1:1/wb" % secret):
            p = run("pg.json", "--db", url)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("was not recorded", p.stderr)
            with open(os.path.join(TMP, "pg.json")) as f:
                self.assertIn(url.replace(secret, "***"), json.load(f)["command"])
            p2 = wb("history", db=url)
            self.assertEqual(p2.returncode, 2)
            self.assertRegex(p2.stderr, "PostgreSQL history is not built here|cannot connect")
            for text in (p.stdout, p.stderr, p2.stdout, p2.stderr):
                self.assertNotIn(secret, text)


if __name__ == "__main__":
    wbtest.main()
