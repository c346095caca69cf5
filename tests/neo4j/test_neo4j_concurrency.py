"""Writers into one conversation: no transient error reaches a caller, no acknowledged turn is lost.

Eight processes write one turn at a time into one conversation, twice (``python
bench/neo4j_faults.py writers`` makes ten runs, with ``--restart`` on a server just started); the
lock itself: a writer queued on a conversation must not deadlock with the writer that holds it,
whatever the holder writes (a new session, the conversation's counters); and eight processes
making a missing index at once (a fresh database) all start.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

import pytest

from graphmem import Memory
from graphmem.data.records import validate
from graphmem.index.options import MemoryOptions
from graphmem.store.neo4j.client import Transaction
from graphmem.store.neo4j.queries import query
from graphmem.store.neo4j.write import Writer
from graphmem.store.users import owner

from tests.conftest import REPO
from tests.neo4j.test_neo4j import emptied

CONV = "concurrency-test"

WRITER = r"""
import collections, json, logging, sys
from graphmem import Memory
from graphmem.errors import GraphmemError

retried = collections.Counter()

class Count(logging.Handler):
    def emit(self, record):  # the driver logs each retry of a managed transaction
        if "retried" in record.getMessage():
            retried[getattr(record.args[-1], "code", None) or type(record.args[-1]).__name__] += 1

logging.getLogger("neo4j").addHandler(Count(logging.WARNING))
conv, name, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
try:
    mem = Memory(backend="neo4j")
    for i in range(n):
        mem.ingest([{"id": f"{name}-{i}", "speaker": name, "text": f"{name} planted tree number {i} today.",
                     "conversation": conv, "date": "2023-06-01"}])
        print(f"{name}-{i}", flush=True)
except GraphmemError as exc:
    print(exc, file=sys.stderr)
    sys.exit(1)
finally:
    print("#retried", json.dumps(retried), flush=True)
"""


@pytest.fixture
def clean():
    yield from emptied(CONV)


def _ids(client) -> list[str]:
    return [r["id"] for r in client.run("MATCH (t:Turn {conversation: $c}) RETURN t.id AS id", c=CONV)]


@pytest.mark.parametrize("run", [1, 2])
def test_eight_writers_into_one_conversation_see_no_error_and_lose_nothing(clean, run):
    writers, n = 8, 20
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, CONV, f"w{j}", str(n)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env) for j in range(writers)]
    acked, retried = [], {}
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0 and not err.strip(), err  # no error of any kind reached a writer
        for line in out.splitlines():
            if line.startswith("#retried "):
                retried.update(json.loads(line.split(" ", 1)[1]))
            else:
                acked.append(line)
    ids = _ids(clean)
    assert len(acked) == writers * n
    assert sorted(ids) == sorted(acked), retried  # every acknowledged turn, none twice


def test_a_writer_queued_on_a_conversation_does_not_deadlock_with_its_holder(clean):
    """The holder writes the conversation node again (a new day's session; its counters) while
    another writer waits for the lock: the waiter gets the lock once the holder commits."""
    Memory(backend="neo4j").ingest([{"id": "c0", "speaker": "Ann", "text": "First tree.", "conversation": CONV,
                                    "date": "2023-06-01"}])
    lock = query("memory_lock")
    locks = [{"id": CONV, "user": None, "owner": owner(None)}]  # the conversation of turns that carry no user
    waited: dict[str, object] = {}
    with clean.driver.session() as mine, clean.driver.session() as theirs:
        holder = mine.begin_transaction()
        holder.run(lock, p={"conversations": locks, "keys": ["c1"]}).consume()

        def queued() -> None:
            tx = theirs.begin_transaction()
            try:
                waited["rows"] = tx.run(lock, p={"conversations": locks, "keys": ["c2"]}).data()
            except Exception as exc:  # noqa: BLE001 - the deadlock this test is about
                waited["error"] = exc
            finally:
                tx.close()

        thread = threading.Thread(target=queued)
        thread.start()
        _until_blocked(clean)
        turns = validate([{"id": "c1", "speaker": "Bob", "text": "Second tree, a day later.", "conversation": CONV,
                           "date": "2023-06-02"}])
        Writer(clean, MemoryOptions())._work(Transaction(holder, clean), turns, locks, {})
        holder.commit()
        thread.join(60)
    assert "error" not in waited, str(waited.get("error"))
    assert waited["rows"][0]["indexed"] == 2  # it waited, then read what the holder committed


def _until_blocked(client, seconds: float = 10.0) -> None:
    """Wait until some transaction is blocked on a lock (the queued writer), or ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        rows = client.run("SHOW TRANSACTIONS YIELD status RETURN status")
        if any(str(r["status"]).startswith("Blocked") for r in rows):
            return
        time.sleep(0.05)
    pytest.fail("the second writer never waited for the lock")


SCHEMA = r"""
from graphmem.errors import GraphmemError
from graphmem.store.neo4j.client import connect
try:
    with connect() as client:
        client.ensure_schema()
except GraphmemError as exc:
    raise SystemExit(str(exc))
"""


def test_eight_processes_making_a_missing_index_at_once_all_start(clean):
    """Each finds the index missing and makes it (``IF NOT EXISTS``): the ones that lose the race
    to another find it made, or deadlock with it and are retried; none fails."""
    clean.run("DROP INDEX term_owner_vdf IF EXISTS")
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    try:
        procs = [subprocess.Popen([sys.executable, "-c", SCHEMA], stderr=subprocess.PIPE, text=True, env=env)
                 for _ in range(8)]
        errors = [p.communicate(timeout=300)[1].strip() for p in procs]
    finally:
        clean.ensure_schema()  # whatever happened, the index is there again
    assert errors == [""] * 8, errors
    assert clean.query("schema_state") and any(r["name"] == "term_owner_vdf" and r["state"] == "ONLINE"
                                               for r in clean.query("schema_state"))


EPOCH_USER = "epoch-test"


@pytest.fixture
def clean_epoch():
    from graphmem.store.users import scoped

    yield from emptied(scoped(CONV, EPOCH_USER))


def _said(i: str, speaker: str, text: str) -> dict:
    return {"id": i, "speaker": speaker, "text": text, "date": "2023-01-0" + i[-1], "conversation": CONV,
            "user": EPOCH_USER}


@pytest.mark.parametrize("then", ["ingest", "forget"])
def test_a_writer_whose_conversation_another_forgot_in_reads_it_again(clean_epoch, then):
    """Writer B read the conversation (t1, t2); A forgot t2 and wrote t3 (and t4), so the count of
    turns B held is the database's again. B's next write must not read the conversation as it held
    it: its claims, and the people they name, are those of a memory that held the same turns."""
    t1, t2 = _said("t1", "Ann", "I live in Paris."), _said("t2", "Bob", "I adopted a dog.")
    t3, t4 = _said("t3", "Cy", "Thanks, Ann! I drive a red Volvo."), _said("t4", "Ann", "Thanks, Cy! I moved to Berlin.")
    a, b = Memory(backend="neo4j"), Memory(backend="neo4j")
    b.ingest([t1, t2])
    a.forget(ids=["t2"], user=EPOCH_USER)
    if then == "ingest":
        a.ingest([t3])
        b.ingest([t4])
        kept = [t1, t3, t4]
    else:
        a.ingest([t3, t4])
        assert b.forget(ids=["t4"], user=EPOCH_USER) == 1
        kept = [t1, t3]
    ram = Memory()
    ram.ingest(kept)
    reader = Memory(backend="neo4j")
    assert reader.claims(CONV, user=EPOCH_USER) == ram.claims(CONV, user=EPOCH_USER)
    assert reader.facts("Cy", user=EPOCH_USER) == ram.facts("Cy", user=EPOCH_USER) != []
    assert reader.search("What does Cy drive?", k=1, conversation=CONV, user=EPOCH_USER) == ["t3"]
