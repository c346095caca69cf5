"""What the Neo4j memory costs, and what it finds, as the database grows: LoCoMo copied r times.

Why: ``Memory(backend="neo4j")`` must start in constant time, search at a cost set by the query,
write one turn at a cost set by the turn, and lose nothing when many processes write. The only
honest way to show that is to grow the database and measure, beside Neo4j's own full-text query
on the same index in the same run.

    python bench/neo4j_memory.py load --r 4               # LoCoMo x 4 as a turn file, through graphmem load
    python bench/neo4j_memory.py measure [--trials 60] [--warmup 300] [--dense]  # start-up, first search, RSS, warm search, one-turn ingest
    python bench/neo4j_memory.py quality [--candidates 100]  # LoCoMo evidence hit@5 through the database
    python bench/neo4j_memory.py writers --writers 2,4 --turns 100

Copies: copy j of conversation ``conv-26`` is ``r{j}-conv-26``, with its own speaker names
(``Caroline`` -> ``Carolineb`` in copy 1, in the speaker field and in the text), loaded by
``graphmem load`` as a turn file. ``measure`` reports how many turns the database holds (other
conversations loaded there count too). Needs Neo4j (``scripts/neo4j-local start``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from memory_scale import DEFAULT_DATA, _pct, copies  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BASE = "bench-mem-26"
"""The memory conversation one-turn ingests go into: conv-26's 419 turns, ingested through the memory."""

STARTUP = r"""
import time
t0 = time.perf_counter()
import resource, sys, json
from graphmem import Memory
mem = Memory(backend="neo4j")
t1 = time.perf_counter()
mem.search(sys.argv[1], k=5)
t2 = time.perf_counter()
print(json.dumps({"start": t1 - t0, "first": t2 - t1, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "rows": mem.store.client.rows_read}))
"""


def _turn_file(data: str, r: int) -> Path:
    records, _ = copies(data, r)
    out = Path(tempfile.mkdtemp()) / f"locomo-x{r}.jsonl"
    with out.open("w", encoding="utf-8") as f:
        for rec in records:
            conv = rec["conversation"].replace("/", "-")
            f.write(json.dumps({**rec, "conversation": conv, "id": rec["id"].replace("/", "-")}) + "\n")
    return out


def load(args: argparse.Namespace) -> None:
    path = _turn_file(args.data, args.r)
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "graphmem.cli", "load", "--data", str(path), "--quiet"],
                          capture_output=True, text=True, cwd=ROOT)
    print(done.stdout.strip().splitlines()[-1] if done.returncode == 0 else done.stderr.strip())
    print(f"load of LoCoMo x {args.r}: {time.perf_counter() - t:.1f} s wall")


def _questions(data: str) -> list[str]:
    _, questions = copies(data, 1)
    return questions


def _base(mem, data: str) -> None:
    """The 419-turn memory conversation, made afresh on every run (conv-26 under its own id, one
    ingest): each run's one-turn ingests add to it, and the target names a 419-turn conversation."""
    from graphmem.data.locomo import load_file
    from graphmem.store.neo4j.checks import delete

    delete(mem.store.client, BASE)
    conv = load_file(data).conversations[0]
    mem.ingest([{"id": t.id, "speaker": t.speaker, "text": t.text, "date": t.date.isoformat(), "conversation": BASE}
                for t in conv.turns])


def measure(args: argparse.Namespace) -> None:
    from graphmem import Memory

    rng = random.Random(0)
    questions = _questions(args.data)
    asked = [rng.choice(questions) for _ in range(args.trials)]
    starts = [json.loads(subprocess.run([sys.executable, "-c", STARTUP, q], capture_output=True, text=True, cwd=ROOT,
                                        check=True).stdout) for q in asked[:3]]
    best = min(starts, key=lambda s: s["start"])
    from graphmem.index.options import MemoryOptions

    mem = Memory(backend="neo4j", dense=args.dense, options=MemoryOptions(updates=not args.no_updates))
    _base(mem, args.data)
    n = len(mem)
    for q in rng.sample(questions, min(args.warmup, len(questions))):
        mem.search(q, k=5)  # untimed: a server just started runs slower until its JVM has compiled the search
    warm, anchor = [], []
    client = mem.store.client
    for q in asked:
        t = time.perf_counter()
        mem.search(q, k=5)
        warm.append(time.perf_counter() - t)
        t = time.perf_counter()
        client.run(ANCHOR, lucene=_plain(q))
        anchor.append(time.perf_counter() - t)
    one, first = [], None
    fresh = Memory(backend="neo4j", dense=args.dense)  # a process that has not read the conversation yet pays the catch-up once
    for i in range(args.trials):
        t = time.perf_counter()
        fresh.ingest([{"id": f"new-{time.time_ns()}-{i}", "speaker": "Caroline", "conversation": BASE,
                       "text": f"I told you about the {i} lanterns yesterday.", "date": "2023-10-22"}])
        dt = time.perf_counter() - t
        if first is None:
            first = dt
        else:
            one.append(dt)
    print(f"turns in the database: {n}" + ("; dense: the fused search, ingests embedded" if args.dense else ""))
    print(f"fresh process: start-up {best['start']:.2f} s (imports included), first search {best['first'] * 1000:.0f} ms,"
          f" RSS {best['rss_mb']:.0f} MB, rows read {best['rows']}")
    print("fresh processes in the order run (the first meets the server's plans cold): start-up "
          + " / ".join(f"{s['start']:.2f}" for s in starts) + " s, first search "
          + " / ".join(f"{s['first'] * 1000:.0f}" for s in starts) + " ms")
    print(f"warm search p50 {_pct(warm, 50) * 1000:.1f} ms, p95 {_pct(warm, 95) * 1000:.1f} ms"
          f"  (Neo4j's own full-text query, top 5: p50 {_pct(anchor, 50) * 1000:.1f} ms, p95 {_pct(anchor, 95) * 1000:.1f} ms)")
    print(f"one-turn ingest into a {419}-turn conversation: p50 {_pct(one, 50) * 1000:.1f} ms,"
          f" p95 {_pct(one, 95) * 1000:.1f} ms (first in a fresh process, reading the conversation: {first * 1000:.0f} ms)")


ANCHOR = ("CALL db.index.fulltext.queryNodes('turn_terms', $lucene, {limit: 5}) YIELD node, score"
          " RETURN node.key AS key, node.text AS text, score")
"""Neo4j's own full-text search on the same index: the question's stems, Lucene's BM25, top 5."""


def _plain(question: str) -> str:
    from graphmem.text.terms import analyse

    return " ".join(f"terms:{s}" for s in dict.fromkeys(analyse(question))) or "terms:none"


def quality(args: argparse.Namespace) -> None:
    from graphmem import Memory
    from graphmem.data.locomo import load_file

    dataset = load_file(args.data)
    here = _held(args.dense)  # the embedded memory over exactly what the database searches: the same statistics
    print(f"turns searched: {len(here)} (LoCoMo's: {sum(len(c.turns) for c in dataset.conversations)})"
          + (f"; dense, {args.nearest} nearest sentences" if args.dense else ""))
    for candidates in args.candidates:
        db = Memory(backend="neo4j", dense=args.dense)
        db.store.searcher.candidates = candidates
        db.store.searcher.nearest = args.nearest
        n = same = hit_db = hit_here = 0
        times = []
        for _, q, want in dataset.with_evidence():
            t = time.perf_counter()
            got = db.search(q.text, 5)
            times.append(time.perf_counter() - t)
            ref = here.search(q.text, 5)
            n += 1
            same += got == ref
            hit_db += bool(want & set(got))
            hit_here += bool(want & set(ref))
        print(f"candidates {candidates}: LoCoMo evidence hit@5 over all turns {hit_db / n:.3f} through Neo4j,"
              f" {hit_here / n:.3f} embedded; identical top 5 for {same} of {n} questions;"
              f" search p50 {_pct(times, 50) * 1000:.1f} ms")


def _held(dense: bool = False):
    """An embedded Memory over every turn the database searches, in the database's order."""
    from graphmem import Memory
    from graphmem.store.neo4j.client import connect

    with connect() as client:
        rows = client.run("MATCH (t:Turn) WHERE t.bag IS NOT NULL RETURN t.key AS id, t.speaker AS speaker,"
                          " t.text AS text, t.date AS date, t.conversation AS conversation, t.number AS turn"
                          " ORDER BY conversation, t.position")
    mem = Memory(dense=dense)
    mem.ingest([{**r, "date": r["date"].to_native().isoformat() if r["date"] else None} for r in rows])
    return mem


WRITER = r"""
import sys
from graphmem import Memory
conv, name, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
mem = Memory(backend="neo4j")
for i in range(n):
    mem.ingest([{"id": f"{name}-{i}", "speaker": name, "text": f"{name} planted tree number {i} today.",
                 "conversation": conv, "date": "2023-06-01"}])
    print(f"{name}-{i}", flush=True)
"""


def writers(args: argparse.Namespace) -> None:
    from graphmem.store.neo4j.client import connect
    from graphmem.store.neo4j.checks import delete

    client = connect()
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    for w in args.writers:
        conv = f"bench-writers-{w}"
        delete(client, conv)
        t = time.perf_counter()
        procs = [subprocess.Popen([sys.executable, "-c", WRITER, conv, f"w{j}", str(args.turns)], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, env=env) for j in range(w)]
        acked, failed = [], 0
        for p in procs:
            out, err = p.communicate()
            failed += p.returncode != 0
            acked.append(out.split())
        wall = time.perf_counter() - t
        rows = client.run("MATCH (t:Turn {conversation: $c}) RETURN t.id AS id, t.position AS p ORDER BY p", c=conv)
        ids = [r["id"] for r in rows]
        every = sorted(ids) == sorted(i for a in acked for i in a)
        dup = len(ids) - len(set(ids))
        ordered = [r["p"] for r in rows] == list(range(len(rows))) and all(
            [i for i in ids if i in set(a)] == a for a in acked)
        print(f"{w} writers x {args.turns} turns into one conversation: {sum(map(len, acked))} acknowledged,"
              f" {len(ids)} present, every acknowledged present: {every}, duplicated: {dup},"
              f" order consistent: {ordered}, writers failed: {failed}, {wall:.1f} s wall")
        delete(client, conv)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=DEFAULT_DATA)
    sub = ap.add_subparsers(dest="what", required=True)
    sub.add_parser("load").add_argument("--r", type=int, required=True)
    m = sub.add_parser("measure")
    m.add_argument("--trials", type=int, default=60)
    m.add_argument("--dense", action="store_true", help="the fused search and embedding ingests (graphmem load --dense)")
    m.add_argument("--warmup", type=int, default=300, help="untimed searches first, warming the server (0: none)")
    m.add_argument("--no-updates", action="store_true",
                   help="the warm searches without the knowledge updates' rules (MemoryOptions(updates=False))")
    q = sub.add_parser("quality")
    q.add_argument("--candidates", type=lambda s: [int(x) for x in s.split(",")], default=[100])
    q.add_argument("--dense", action="store_true", help="the fused search (a database loaded with graphmem load --dense)")
    q.add_argument("--nearest", type=int, default=100, help="with --dense: sentences the vector index proposes")
    w = sub.add_parser("writers")
    w.add_argument("--writers", type=lambda s: [int(x) for x in s.split(",")], default=[2, 4])
    w.add_argument("--turns", type=int, default=100)
    args = ap.parse_args()
    {"load": load, "measure": measure, "quality": quality, "writers": writers}[args.what](args)


if __name__ == "__main__":
    main()
