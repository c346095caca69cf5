"""Wall time of the Neo4j side: the full LoCoMo load, a repeat load, and the path arm over Cypher.

    python bench/neo4j_perf.py [--data PATH] [--batch 2000] [--arms path,path2,walk3] [--no-memo]

Needs the server in ``NEO4J_*`` (``scripts/neo4j-local start``). It

1. deletes every LoCoMo conversation from Neo4j (the database is then empty of graphmem
   data; anything else in it is reported and left alone), then times ``load`` of all ten
   conversations: reading claims and building the mirror, the schema, every batch, and
   the count check. Rows per second count the rows written (nodes + relationships);
2. times the same load again (the repeat: everything MERGEs onto what is there);
3. builds every conversation as the bench does (not timed), then times each path arm
   over all questions, over the mirror and over Neo4j (``path_backend`` included:
   the fingerprint check and the batched prefetch), and checks the hits are identical.
   ``--no-memo`` adds the arm with no memo at all: one round trip per question and hop.

Targets (the issue): load into an empty database <= 15 s wall, repeat <= 15 s, the path
arm over Neo4j for all 1,986 questions <= 10 s wall.
"""

from __future__ import annotations

import argparse
import os
import time

from graphmem.bench.arms.base import Context
from graphmem.bench.arms.path import PathArm
from graphmem.bench.locomo import run as bench
from graphmem.data import locomo
from graphmem.store.neo4j.client import connect
from graphmem.bench.arms.hops import path_backend
from graphmem.store.neo4j.checks import DEFAULT_BATCH, delete
from graphmem.store.neo4j.load import load_conversations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=os.environ.get("GRAPHMEM_LOCOMO"))
    parser.add_argument("--batch", type=int, default=None)
    parser.add_argument("--arms", default="path,path2,walk3", help="path arms to time (path, path2, path3, walk2, walk3)")
    parser.add_argument("--no-memo", action="store_true", help="also time path with one query per question")
    opts = parser.parse_args()

    dataset = locomo.load_dataset(opts.data)
    batch = opts.batch or DEFAULT_BATCH
    client = connect()
    print(f"Neo4j at {client.settings.where}, batch {batch}")

    t = time.perf_counter()
    gone = sum(delete(client, c.id, 10_000) for c in dataset.conversations)
    other = client.run("MATCH (n) RETURN count(n) AS n")[0]["n"]
    print(f"emptied: {gone} nodes deleted in {time.perf_counter() - t:.2f} s ({other} other nodes left alone)")

    for label in ("load into empty", "repeat load"):
        t = time.perf_counter()
        report = load_conversations(client, dataset.conversations, batch=batch)
        wall = time.perf_counter() - t
        bad = [c for c in report.counts if not c.ok]
        print(f"{label:<16} {wall:6.2f} s wall  {report.rows} rows  {report.rows / wall:8.0f} rows/s"
              f"  (target <= 15 s){'  MISMATCH' if bad else ''}")

    contexts = []
    for conv in dataset.conversations:
        ctx = Context.of(conv)
        bench.read_and_build(ctx)
        contexts.append(ctx)
    questions = sum(len(c.conv.questions) for c in contexts)
    arms = {name: fn for name, fn in _arms().items() if name in opts.arms.split(",")}
    print(f"\npath arms over {questions} questions, {len(contexts)} conversations (wall s, questions/s):")
    print(f"{'arm':<14}{'memory':>8}{'q/s':>8}{'neo4j':>8}{'q/s':>8}{'queries':>9}  hits")
    runs = [(name, hops, guided, True) for name, (hops, guided) in arms.items()]
    if opts.no_memo:
        runs.append(("path no-memo", 1, True, False))
    for name, hops, guided, memo in runs:
        mem_s = neo_s = 0.0
        queries = 0
        same = True
        for ctx in contexts:
            for key in ("neo4j_neighbourhood", "neo4j_blind"):
                ctx.extra.pop(key, None)
            t = time.perf_counter()
            memory = PathArm(ctx, hops, guided).cite(ctx.conv.questions, 5)
            mem_s += time.perf_counter() - t
            t = time.perf_counter()
            backend = path_backend(ctx, client, memo=memo)
            cypher = PathArm(ctx, hops, guided, backend=backend).cite(ctx.conv.questions, 5)
            neo_s += time.perf_counter() - t
            queries += backend.queries
            same = same and cypher == memory
        print(f"{name:<14}{mem_s:8.2f}{questions / mem_s:8.0f}{neo_s:8.2f}{questions / neo_s:8.0f}{queries:9d}"
              f"  {'identical' if same else 'DIFFER'}")
    print("(target: path over Neo4j <= 10 s wall)")
    client.close()


def _arms() -> dict[str, tuple[int, bool]]:
    return {"path": (1, True), "path2": (2, True), "path3": (3, True), "walk2": (2, False), "walk3": (3, False)}


if __name__ == "__main__":
    main()
