#!/usr/bin/env python3
"""A history someone hands you, and passwords (docs/security.md): SQLite histories made by wavebench
and then changed with Python's sqlite3 (a view over an endless query, triggers that hang recording
or rewrite the baseline, a document nested 100,000 levels, one without a suite, terminal escapes in
every text `history` prints, enough runs to pass a statement's deadline), a history the user may
only read; PostgreSQL URLs whose password holds spaces and quotes, connection strings that are no
postgresql:// URL, and a URL given in place of a command. Every command must end (a timeout is a
failure), refuse with exit 2 and a message naming what it refuses, and print or record no password.
Usage: history_hostile_test.py BUILD_DIR SOURCE_DIR"""
import hashlib
import json
import os
import pwd
import shutil
import sqlite3
import stat
import subprocess
import unittest

import wbtest
from wbtest import WB

TMP = wbtest.tempdir()
BASE = os.path.join(TMP, "base.db")  # two runs of tiny, recorded by wavebench
SUITE = os.path.join(TMP, "tiny.toml")
SHARDS = [os.path.join(TMP, "shard%d.json" % i) for i in (1, 2)]
SPIN = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c"

wb = wbtest.runner(db=BASE, unset=("XDG_DATA_HOME",), cwd=TMP, timeout=120)


def run(out, *args, **kw):
    return wb("run", SUITE, "--platform", "cpu", "--no-ceilings", "--out", os.path.join(TMP, out), *args, **kw)


def ends(test, *args, timeout=60, **kw):
    """wavebench, which must end within `timeout` seconds."""
    try:
        return wb(*args, timeout=timeout, **kw)
    except subprocess.TimeoutExpired:
        test.fail("`wavebench %s` did not end within %d s" % (" ".join(args), timeout))


def setUpModule():
    wbtest.write(SUITE, '[suite]\nname = "tiny"\nrepetitions = 3\nwarmup = 1\n\n[[benchmark]]\nfamily = "reduce"\n'
                        'variants = ["tree", "atomic"]\nn = [1000]\n')
    # Runs 1 and 2 of the base history, and the two shards of a third for merge.
    for out, args, said in (("r1.json", (), "history: run 1 "), ("r2.json", (), "history: run 2 "),
                            (SHARDS[0], ("--shard", "1/2", "--no-history"), "results:"),
                            (SHARDS[1], ("--shard", "2/2", "--no-history"), "results:")):
        p = run(out, *args)
        assert p.returncode == 0 and said in p.stdout, p.stdout + p.stderr


def copy(name, *plant):
    """A copy of the base history in a folder of its own, with the SQL statements `plant` run on it."""
    folder = os.path.join(TMP, name)
    os.makedirs(folder)
    db = os.path.join(folder, "history.db")
    shutil.copy(BASE, db)
    con = sqlite3.connect(db)
    for sql in plant:
        con.executescript(sql)
    con.commit()
    con.close()
    return db


def add_run(db, document, **columns):
    """A run of tiny's suite, platform and device with `document` (text) and other columns; its id."""
    con = sqlite3.connect(db)
    row = dict(zip([d[0] for d in con.execute("SELECT * FROM runs WHERE id = 1").description],
                   con.execute("SELECT * FROM runs WHERE id = 1").fetchone()))
    row.pop("id")
    row.update(document=document, baseline=0, **columns)
    cur = con.execute("INSERT INTO runs (%s) VALUES (%s)" % (", ".join(row), ", ".join("?" * len(row))),
                      list(row.values()))
    con.commit()
    con.close()
    return cur.lastrowid


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class Passwords(unittest.TestCase):
    def test_a_password_with_spaces_and_quotes_is_redacted_whole(self):
        secret = "Sp ace'q\"@x%41-Z9"  # a '/' is refused (test_urls_libpq_would_misread_are_refused...)
        url = "postgresql://wb:%s@127.0.0.1:1/wb" % secret  # no server on port 1: recorded nowhere
        p = run("pw.json", "--db", url)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("was not recorded", p.stderr)
        with open(os.path.join(TMP, "pw.json")) as f:
            text = f.read()
        self.assertIn("--db postgresql://wb:***@127.0.0.1:1/wb", json.loads(text)["command"])
        seen = [p.stdout, p.stderr, text]
        for args in (("history", "--db", url), ("compare", "999", "latest", "--db", url),
                     ("compare", url, "latest"), ("report", url, "-o", os.path.join(TMP, "pw.html"))):
            q = ends(self, *args)
            self.assertEqual(q.returncode, 2, q.stdout + q.stderr)
            seen += [q.stdout, q.stderr]
        q = ends(self, "history", db=url)
        self.assertEqual(q.returncode, 2, q.stderr)
        seen += [q.stdout, q.stderr]
        for text in seen:
            for part in ("ace'q", "x%41-Z9", "@xA"):
                self.assertNotIn(part, text)

    def test_connection_strings_that_are_no_url_are_refused_and_make_nothing(self):
        for value in ("host=127.0.0.1 port=1 password=Secret-kv9 dbname=wb", "dbname=wb password='Secret kv9'",
                      "host=a/b password=Secret-kv9", "POSTGRESQL://wb:Secret-kv9@127.0.0.1:1/wb",
                      "Postgres://wb:Secret-kv9@h/db", "mysql://wb:Secret-kv9@h/db", "sqlite:///Secret-kv9.db"):
            for how in ("--db", "WAVEBENCH_DB"):
                cwd = wbtest.tempdir()
                opt, env = (["--db", value], None) if how == "--db" else ([], value)
                kw = dict(cwd=cwd, db=env) if env else dict(cwd=cwd)
                for args in (["history"], ["compare", "latest", "previous"], ["report", "latest", "-o", "x.html"],
                             ["run", SUITE, "--platform", "cpu", "--no-ceilings", "--out", "r.json"],
                             ["merge", *SHARDS, "-o", "m.json"]):
                    p = ends(self, *args, *opt, **kw)
                    what = "%s %s=%s" % (args[0], how, value)
                    self.assertEqual(p.returncode, 2, what + ": " + p.stdout + p.stderr)
                    self.assertIn("postgresql://USER@HOST", p.stderr, what)
                    self.assertNotIn("Secret", p.stdout + p.stderr, what)
                    self.assertEqual(os.listdir(cwd), [], what)  # no file, no folder, no results

    def test_a_url_in_place_of_a_command_is_not_echoed(self):
        for args in (["postgresql://wb:Secret-cmd9@h/db"], ["postgres://wb:Sec ret'9@h/db", "history"],
                     ["history", "postgresql://wb:Sec ret'9@h/db"], ["--db=postgresql://wb:Sec ret'9@h/db"],
                     ["history", "--limit", "postgresql://wb:Sec ret'9@h/db"]):
            p = ends(self, *args)
            self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
            for part in ("Secret-cmd9", "Sec ret", "ret'9"):
                self.assertNotIn(part, p.stdout + p.stderr, args)

    def test_a_password_outside_db_is_refused_and_makes_nothing(self):
        # As an output, a plugin folder or a label it was printed and made into folders.
        url = "postgresql://wb:Secret-out9@h:1/db"
        for args in (["run", SUITE, "--platform", "cpu", "--no-ceilings", "--out", url + ".json"],
                     ["run", SUITE, "--platform", "cpu", "--no-ceilings", "--plugins", url, "--out", "r.json"],
                     ["report", url + ".json", "-o", "x.html"], ["report", "latest", "-o", url + ".html"],
                     ["inspect", url], ["list", "--filter", "x", "--plugins", "dbname=x password=Secret-out9"]):
            cwd = wbtest.tempdir()
            p = ends(self, *args, cwd=cwd)
            self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
            self.assertIn("holds a password", p.stderr)
            self.assertNotIn("Secret-out9", p.stdout + p.stderr, args)
            self.assertEqual(os.listdir(cwd), [], args)

    def test_urls_libpq_would_misread_are_refused_and_make_nothing(self):
        for value in ("postgresql://wb:Zq7/x@127.0.0.1:1/db", "postgresql:/wb:Zq7-mis9@h:1/db",
                      "postgresql:wb:Zq7-mis9@h/db", "postgresql%3A%2F%2Fwb%3AZq7-mis9%40h%2Fdb"):
            cwd = wbtest.tempdir()
            p = ends(self, "history", "--db", value, cwd=cwd)
            self.assertEqual(p.returncode, 2, value + ": " + p.stdout + p.stderr)
            self.assertNotIn("Zq7", p.stdout + p.stderr, value)
            self.assertEqual(os.listdir(cwd), [], value)


class HostileHistory(unittest.TestCase):
    def test_a_view_over_an_endless_query_is_refused(self):
        for name, plant, named in (
                ("view-runs", "ALTER TABLE runs RENAME TO runs_old; CREATE VIEW runs AS SELECT r.* FROM runs_old r "
                              "JOIN (%s) c ON c.x < 0" % SPIN, "view runs"),
                ("view-spin", "CREATE VIEW spin AS " + SPIN, "view spin")):
            db = copy(name, plant)
            page = os.path.join(TMP, name + ".html")
            for args in (["history"], ["history", "--json"], ["compare", "1", "2"], ["compare", "latest", "previous"],
                         ["report", "1", "2", "-o", page], ["report", "1", "--trend", "5", "-o", page],
                         ["history", "--mark-baseline", "1"]):
                p = ends(self, *args, db=db)
                self.assertEqual(p.returncode, 2, "%s %s: %s" % (name, args, p.stdout + p.stderr))
                self.assertIn(named, p.stderr)
                self.assertIn(db, p.stderr)
            self.assertFalse(os.path.exists(page))

    def test_a_trigger_that_hangs_recording_is_refused_before_anything_is_measured(self):
        db = copy("spin-trigger", "CREATE VIEW spin AS %s; CREATE TRIGGER hang AFTER INSERT ON runs BEGIN "
                                  "SELECT count(*) FROM spin; END" % SPIN)
        before = sha(db)
        out = os.path.join(TMP, "spin.json")
        p = ends(self, "run", SUITE, "--platform", "cpu", "--no-ceilings", "--out", out, "--db", db, timeout=120)
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn("trigger hang on runs", p.stderr)
        self.assertFalse(os.path.exists(out))  # nothing was measured, so nothing is lost
        p = ends(self, "merge", *SHARDS, "-o", os.path.join(TMP, "spin-merged.json"), "--db", db, timeout=120)
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn("trigger hang on runs", p.stderr)
        self.assertEqual(sha(db), before)
        # --no-history: the history is not used, the run is.
        p = ends(self, "run", SUITE, "--platform", "cpu", "--no-ceilings", "--out", out, "--db", db, "--no-history",
                 timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(wbtest.load(out)["results"]), 2)

    def test_a_trigger_that_rewrites_the_baseline_is_refused(self):
        db = copy("rewrite")
        self.assertEqual(ends(self, "history", "--mark-baseline", "1", db=db).returncode, 0)
        con = sqlite3.connect(db)
        con.execute("CREATE TRIGGER keep AFTER INSERT ON runs BEGIN UPDATE runs SET document = NEW.document "
                    "WHERE baseline; END")
        con.commit()
        con.close()
        p = run("rewrite.json", "--db", db)
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn("trigger keep on runs", p.stderr)
        p = ends(self, "compare", "baseline", "latest", db=db)
        self.assertNotIn("same", p.stdout)
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn("trigger keep on runs", p.stderr)

    def test_a_history_the_user_may_only_read_is_read_and_left_as_it_was(self):
        out = wbtest.tempdir()
        os.chmod(out, 0o777)
        os.chmod(TMP, 0o755)  # for nobody, below
        commands = [["history"], ["history", "--json"], ["compare", "1", "2"], ["compare", "latest", "previous"],
                    ["report", "1", "2", "-o", os.path.join(out, "a.html")],
                    ["report", "2", "--trend", "5", "-o", os.path.join(out, "b.html")]]
        for mode in ("delete", "wal"):
            db = copy("read-only-" + mode, "PRAGMA journal_mode = %s" % mode)
            before = sha(db)
            os.chmod(db, 0o444)
            os.chmod(os.path.dirname(db), 0o555)
            for args in commands:
                p = ends(self, *args, db=db)
                self.assertIn(p.returncode, (0, 1), "%s %s: %s" % (mode, args, p.stderr))
                self.assertNotIn("error", p.stderr)
            # As root the permissions stop nothing: the journal mode and the bytes say whether it wrote.
            self.assertEqual(sha(db), before, mode)
            self.assertEqual(sqlite3.connect("file:%s?mode=ro" % db, uri=True).execute(
                "PRAGMA journal_mode").fetchone()[0], mode)
            if os.geteuid() != 0:
                continue
            if not shutil.which("runuser") or "nobody" not in {u.pw_name for u in pwd.getpwall()}:
                print("skipped as nobody: no runuser or no user nobody (as root, permissions stop no write)")
                continue
            # What root's reading left beside a WAL database (SQLite's empty -wal and -shm, which a
            # read-only connection cannot remove) is not there for a user who may not write the folder.
            for left in (db + "-wal", db + "-shm"):
                if os.path.exists(left):
                    os.remove(left)
            # As a user the permissions do stop: the file 0444 in a folder 0555.
            for args in commands:
                p = subprocess.run(["runuser", "-u", "nobody", "--", WB, *args, "--db", db], capture_output=True,
                                   text=True, timeout=60, cwd=out, env=wbtest.environment())
                self.assertIn(p.returncode, (0, 1), "nobody, %s %s: %s" % (mode, args, p.stderr))
                self.assertNotIn("error", p.stderr)
            self.assertEqual(sha(db), before, mode)
            self.assertFalse(os.path.exists(db + "-wal") or os.path.exists(db + "-shm"), mode)

    def test_every_statement_has_a_deadline(self):
        db = copy("many-runs", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000) "
                               "INSERT INTO runs (suite, suite_file, device, arch, platform, toolchain, tool_version, "
                               "started, recorded, complete, configs, verified, failed, errors, crashed, timeouts, "
                               "skipped, document) SELECT suite, suite_file, device || x, arch, platform, toolchain, "
                               "tool_version, started, recorded, complete, configs, verified, failed, errors, crashed, "
                               "timeouts, skipped, '{}' FROM runs, c WHERE id = 1")
        p = ends(self, "history", "--device", "no such device", "--limit", "0", db=db)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("no runs that match", p.stdout)
        p = ends(self, "history", "--device", "no such device", "--limit", "0", db=db,
                 env={"WAVEBENCH_DB_TIMEOUT": "0.002"})
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn("ran longer than 0.002 s", p.stderr)
        self.assertIn(db, p.stderr)
        self.assertIn("WAVEBENCH_DB_TIMEOUT", p.stderr)

    def test_a_document_nested_100000_levels_is_refused(self):
        db = copy("deep")
        doc = wbtest.load(os.path.join(TMP, "r1.json"))
        doc["results"][0]["params"]["deep"] = "@deep@"  # a results document, with 100,000 arrays inside
        deep = add_run(db, json.dumps(doc).replace('"@deep@"', "[" * 100000 + "]" * 100000))
        page = os.path.join(TMP, "deep.html")
        for args in (["compare", "1", str(deep)], ["compare", str(deep), "latest"], ["report", str(deep), "-o", page],
                     ["report", "1", "--trend", "10", "-o", page], ["merge", str(deep), "-o", page + ".json"]):
            p = ends(self, *args, db=db)
            self.assertEqual(p.returncode, 2, "%s: %d %s" % (args, p.returncode, p.stderr))
            self.assertIn("nested deeper than 256", p.stderr, args)
            self.assertIn("run %d of the history" % deep, p.stderr)

    def test_a_document_that_is_no_json_is_named_without_the_library_s_text(self):
        db = copy("nojson")
        bad = add_run(db, '{"results": [1, 2,, 3]}')
        for args in (["compare", "1", str(bad)], ["report", str(bad), "-o", os.path.join(TMP, "nojson.html")]):
            p = ends(self, *args, db=db)
            self.assertEqual(p.returncode, 2, "%s: %d %s" % (args, p.returncode, p.stderr))
            self.assertIn("run %d of the history" % bad, p.stderr)
            self.assertIn("not JSON (at its byte", p.stderr)
            self.assertNotIn("json.exception", p.stderr)

    def test_trend_documents_are_checked(self):
        db = copy("trend")
        doc = wbtest.load(os.path.join(TMP, "r1.json"))
        page = os.path.join(TMP, "trend.html")
        for change, said in ((lambda d: d.pop("suite"), 'no "suite" object'),
                             (lambda d: d.pop("platform"), 'no "platform"'),
                             (lambda d: d["suite"].update(name=5), "suite: .*'name'"),
                             (lambda d: d["device"].update(name=["x"]), "device: .*'name'")):
            bad = json.loads(json.dumps(doc))
            change(bad)
            run_id = add_run(db, json.dumps(bad))
            for args in (["report", "1", "--trend", "100", "-o", page], ["report", str(run_id), "--trend", "3", "-o",
                                                                         page]):
                p = ends(self, *args, db=db)
                self.assertEqual(p.returncode, 2, "%s: %s" % (args, p.stderr))
                self.assertIn("run %d" % run_id, p.stderr)
                self.assertRegex(p.stderr, said)
                self.assertNotIn("json.exception", p.stderr)
            con = sqlite3.connect(db)
            con.execute("DELETE FROM runs WHERE id = ?", (run_id,))
            con.commit()
            con.close()

    def test_history_prints_the_database_texts_escaped(self):
        db = copy("escapes")
        texts = dict(suite="tiny\x1b]0;owned\x07", device="GPU\x1b[2J\x1b[H", tool_version="v\u009b31m1",
                     recorded="\x1b[5m2026-01-01", platform="cpu\x1b[0m", suite_file="s\rx.toml", arch="x\x1bc",
                     toolchain="t\u202e")
        add_run(db, "{}", **texts)
        for args in (["history"], ["history", "--limit", "0"], ["history", "--json"]):
            p = ends(self, *args, db=db)
            self.assertEqual(p.returncode, 0, p.stderr)
            for raw in ("\x1b", "\x07", "\u009b", "\r", "\u202e"):
                self.assertNotIn(raw, p.stdout, args)
        runs = json.loads(ends(self, "history", "--json", db=db).stdout)
        self.assertEqual({k: runs[0][k] for k in texts}, texts)  # JSON escapes them, and keeps them


if __name__ == "__main__":
    wbtest.main()
