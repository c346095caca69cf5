"""Faults: Neo4j is killed (SIGKILL) in the middle of a load, started again, and the load rerun.

The counts must come out exact, with no duplicate node or relationship, and until the
rerun no interrupted conversation may pass for loaded. Needs a server started by
``scripts/neo4j-local`` (the test kills its JVM by the pid file and starts it again as it was,
:mod:`tests.neo4j.server`); about a minute, most of it Neo4j's own start.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from tests.conftest import REPO, need
from tests.neo4j.server import local_server

from graphmem.claims.build import mirror
from graphmem.store.neo4j.client import connect
from graphmem.store.neo4j.checks import require_loaded
from graphmem.store.neo4j.load import load_conversations
from graphmem.store.neo4j.plan import plan
from graphmem.errors import GraphmemError, Neo4jUnavailable

LOADER = r"""
import sys
from graphmem.claims.build import mirror
from graphmem.data import locomo
from graphmem.store.neo4j.client import connect
from graphmem.store.neo4j.load import load_conversations
from graphmem.store.neo4j.plan import plan
from graphmem.errors import GraphmemError

dataset = locomo.load_file(sys.argv[1])
client = connect()
plans = [plan(c, mirror(c)[1]) for c in dataset.conversations]
print("total", sum(len(c.turns) for c in dataset.conversations), flush=True)
written = 0

def tick(step, n):
    global written
    written += n
    print("rows", written, step, flush=True)

try:
    load_conversations(client, dataset.conversations, batch=500, replace=True, plans=plans, on_batch=tick)
except GraphmemError as exc:
    print(exc, file=sys.stderr)
    sys.exit(1)
print("finished", flush=True)
"""


def test_kill_neo4j_mid_load_then_load_again_gives_exact_counts(dataset, locomo_path):
    try:
        connect().close()
    except Neo4jUnavailable as exc:
        need(f"no Neo4j server: {exc}")
    server = local_server()
    pid = server.pid

    loader = subprocess.Popen([sys.executable, "-c", LOADER, str(locomo_path)], cwd=REPO,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    killed_at = None
    try:
        total = None
        deadline = time.monotonic() + 120
        for line in loader.stdout:
            word, *rest = line.split()
            if word == "total":
                total = int(rest[0])
            elif word == "rows" and total and int(rest[0]) >= total // 2:
                killed_at = (int(rest[0]), rest[1])
                os.kill(pid, signal.SIGKILL)  # mid-load: half the rows are committed
                break
            assert word != "finished", "the load finished before it could be interrupted"
            assert time.monotonic() < deadline, "the load did not get going"
        assert killed_at, "the loader stopped before half its rows: " + loader.stderr.read()
        out, err = loader.communicate(timeout=120)
    finally:
        if loader.poll() is None:
            loader.kill()
            loader.wait()
        server.run("start")  # whatever happened, leave a running server behind

    # the interrupted loader failed with one line, and said what to do
    assert loader.returncode == 1, (out, err)
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "Neo4j" in err and "scripts/neo4j-local start" in err, err

    with connect() as client:
        plans = [plan(c, mirror(c)[1]) for c in dataset.conversations]
        with pytest.raises(GraphmemError, match="not loaded|another reading"):
            require_loaded(client, plans)  # an interrupted load never passes for a finished one

        report = load_conversations(client, dataset.conversations, plans=plans)
        assert all(c.ok for c in report.counts), [c.differences() for c in report.counts if not c.ok]
        assert [c.found for c in report.counts] == [p.expected for p in plans]
        require_loaded(client, plans)

        ids = [p.conversation for p in plans]
        dup_nodes = client.run(
            "UNWIND $ids AS id MATCH (n {conversation: id}) WITH n.key AS key, count(*) AS c WHERE c > 1 "
            "RETURN count(*) AS dups", ids=ids)[0]["dups"]
        dup_rels = client.run(
            "UNWIND $ids AS id MATCH (a {conversation: id})-[r]->(b) WITH a, b, type(r) AS t, count(r) AS c "
            "WHERE c > 1 RETURN count(*) AS dups", ids=ids)[0]["dups"]
        assert (dup_nodes, dup_rels) == (0, 0), killed_at
