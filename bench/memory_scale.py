"""How the embedded memory's costs grow with what it holds: LoCoMo copied r times.

Why: a memory a program feeds one turn at a time must make that turn searchable at a cost that
does not grow with the memory, and search at a cost set by the query. The only honest way to
show that is to grow the memory and measure, beside a reference engine doing the same work on
the same records in the same run (SQLite FTS5, in the standard library).

Each copy of LoCoMo gets its own ids (``r{j}/conv-26/D1:3``) and its own speaker names
(``Caroline`` becomes ``Carolineb`` in copy 1, in the speaker field and wherever the text names
her), so the person scope and the vocabulary grow as a bigger memory's would.

    python bench/memory_scale.py --r 1,4,16 [--trials 30] [--path] [--stream]   # one process per r
    python bench/memory_scale.py --claims                               # what claims cost an ingest

Per r it prints: bulk ingest (turns per CPU second), and the same with every conversation's
claims then asked for (an embedded memory, in RAM or saved, reads a conversation's claims when
they are first asked for; a saved memory then writes them to its file); one turn ingested then one search (p50 / p95
wall, and the p50 of its CPU time, which other jobs on the machine move less), and asking for that
turn's conversation's claims after it (p50); warm search (p50 / p95), and its p50 with no one named
(each speaker's name in the questions made "someone": LoCoMo's questions name a person, whose
conversations the memory's person scope then searches alone; unnamed, every turn is scored);
the same two for FTS5; the peak RSS after the ingest, after the claims are read (both before the
FTS5 reference is built: the memory, the imports and the input records the bench holds: all r
copies, or with ``--stream`` copy 0, kept as the model of the new turns, the copy being ingested
and the parsed LoCoMo the copies are made from, as a program feeding the memory from a file holds
little of its input) and after FTS5 (the whole process), and with
``--path`` the file memory's close (which keeps its postings, :mod:`graphmem.store.sqlite.snapshot`) and
its reopen in a fresh process, its imports done first (wall, and the CPU time it took: on a shared
machine the wall time waits for other jobs); then the reopen once more without the snapshot, as
after a process killed before it closed (the postings rebuilt from the saved turns).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from itertools import chain
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from graphmem.text.terms import content, words  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = os.environ.get("GRAPHMEM_LOCOMO", str(ROOT.parent / "shared/data/locomo10.json"))


def _suffix(j: int) -> str:
    """Copy 0 keeps the names; copy j gets a letter suffix (b, c, ..., ba, bb, ...)."""
    if j == 0:
        return ""
    out = ""
    while j:
        j, d = divmod(j, 26)
        out = "abcdefghijklmnopqrstuvwxyz"[d] + out
    return out


def copies(data: str, r: int) -> tuple[list[dict], list[str]]:
    """LoCoMo's turns r times as memory records, and the questions (copy 0's, as written)."""
    batches = copy_batches(data, r)
    questions = next(batches)
    return [rec for batch in batches for rec in batch], questions


def copy_batches(data: str, r: int) -> Iterator:
    """The questions first, then each copy's records, one list per copy, made as they are asked
    for: a bench that feeds them in turn need not hold the r copies (``--stream``)."""
    from graphmem.data.locomo import load_file

    dataset = load_file(data)
    yield [q.text for conv in dataset.conversations for q in conv.questions]
    for j in range(r):
        tail, records = _suffix(j), []
        for conv in dataset.conversations:
            names = {s: s + tail for s in conv.speakers}
            rename = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b") if tail else None
            for t in conv.turns:
                text = rename.sub(lambda m: names[m.group(1)], t.text) if rename else t.text
                records.append({"id": f"r{j}/{conv.id}/{t.id}", "speaker": names[t.speaker],
                                "text": text, "date": t.date.isoformat(), "conversation": f"r{j}/{conv.id}"})
        yield records


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def _fts5(records: list[dict]) -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE turns USING fts5(id UNINDEXED, speaker, text, tokenize='porter unicode61')")
    db.executemany("INSERT INTO turns VALUES (?, ?, ?)", [(r["id"], r["speaker"], r["text"]) for r in records])
    db.commit()
    return db


def _fts_query(question: str) -> str:
    """The question's content words (graphmem's stop list), any of them: FTS5's porter
    tokenizer stems them as it stemmed the rows."""
    kept = [w for w in words(question) if content(w)]
    return " OR ".join(f'"{w}"' for w in dict.fromkeys(kept)) or '""'


def _fts_search(db: sqlite3.Connection, question: str, k: int = 5) -> list[str]:
    sql = "SELECT id FROM turns WHERE turns MATCH ? ORDER BY bm25(turns) LIMIT ?"
    return [row[0] for row in db.execute(sql, (_fts_query(question), k))]


def _new_turn(n: int, base: dict) -> dict:
    return {**base, "id": f"{base['id']}/new{n}", "text": f"I told you about the {n} lanterns yesterday."}


REOPEN = r"""
import json, sys, time
from graphmem import Memory
from graphmem.index.options import MemoryOptions
t, cpu = time.perf_counter(), time.process_time()
mem = Memory(path=sys.argv[1], options=MemoryOptions(updates=sys.argv[3] == "1"))
mem.search(sys.argv[2], k=5)
print(json.dumps({"reopen": time.perf_counter() - t, "reopen cpu": time.process_time() - cpu,
                  "snapshot": mem.store.file.snapshot_read}))
"""
"""A saved memory opened in a fresh process (its imports done first) and searched once."""


def measure(data: str, r: int, trials: int, path: bool, stream: bool = False, updates: bool = True) -> dict:
    """One r, in this process: every figure the module docstring names. ``stream``: the memory is
    fed one copy per ingest, each made when it is ingested, and the bench keeps copy 0's records
    (the new turns are modelled on them; without ``stream`` on any copy's). ``updates``: the
    knowledge updates' rules on (shipped) or off (the store's own order)."""
    from graphmem import Memory
    from graphmem.index.options import MemoryOptions

    batches = copy_batches(data, r)
    questions = next(batches)
    rng = random.Random(0)
    asked = [rng.choice(questions) for _ in range(trials)]
    where = Path(tempfile.mkdtemp()) / "memory.db" if path else None
    options = MemoryOptions(updates=updates)
    mem = Memory(path=str(where), options=options) if where else Memory(options=options)
    spent = 0.0  # CPU of the ingests and the first search only, not of making the copies
    if stream:
        records: list[dict] = next(batches)
        for batch in chain([records], batches):  # each further copy made only when it is ingested
            cpu = time.process_time()
            mem.ingest(batch)
            spent += time.process_time() - cpu
        del batch
    else:
        records = [rec for batch in batches for rec in batch]
        cpu = time.process_time()
        mem.ingest(records)
        spent += time.process_time() - cpu
    cpu = time.process_time()
    mem.search(asked[0], k=5)  # the first search (an index built lazily is built here)
    spent += time.process_time() - cpu
    out: dict = {"r": r, "turns": len(mem)}
    out["bulk turns/s"] = len(mem) / max(spent, 1e-9)
    out["rss ingest MB"] = _rss()
    cpu = time.process_time()
    for conv in dict.fromkeys(rec.conversation for rec in list(mem.turns())):  # a memory in RAM reads them when asked
        mem.claims(conv)
    spent += time.process_time() - cpu
    out["claims turns/s"] = len(mem) / max(spent, 1e-9)
    one, one_cpu, claims = [], [], []
    for n, q in enumerate(asked):
        t, cpu = time.perf_counter(), time.process_time()
        new = _new_turn(n, records[rng.randrange(len(records))])
        mem.ingest([new])
        mem.search(q, k=5)
        one.append(time.perf_counter() - t)
        one_cpu.append(time.process_time() - cpu)
        t = time.perf_counter()
        mem.claims(new["conversation"])
        claims.append(time.perf_counter() - t)
    unnamed = _unnamed(asked, records)
    warm, warm_unnamed = _timed(mem.search, asked), _timed(mem.search, unnamed)
    out.update({"one p50": _pct(one, 50), "one p95": _pct(one, 95), "one cpu p50": _pct(one_cpu, 50),
                "warm p50": _pct(warm, 50), "warm p95": _pct(warm, 95), "claims p50": _pct(claims, 50),
                "unnamed p50": _pct(warm_unnamed, 50)})
    if where:
        out.update(_closed_and_reopened(mem, where, asked[0]))
    out["rss MB"] = _rss()  # the claims read, before FTS5's index joins the process
    db = _fts5(records if not stream else [rec for batch in list(copy_batches(data, r))[1:] for rec in batch])
    fone = []
    for n, q in enumerate(asked):
        t = time.perf_counter()
        new = _new_turn(n, records[rng.randrange(len(records))])
        db.execute("INSERT INTO turns VALUES (?, ?, ?)", (new["id"], new["speaker"], new["text"]))
        db.commit()
        _fts_search(db, q)
        fone.append(time.perf_counter() - t)
    fwarm, funnamed = _timed(lambda q: _fts_search(db, q), asked), _timed(lambda q: _fts_search(db, q), unnamed)
    out.update({"fts one p50": _pct(fone, 50), "fts warm p50": _pct(fwarm, 50), "fts warm p95": _pct(fwarm, 95),
                "fts unnamed p50": _pct(funnamed, 50)})
    out["rss all MB"] = _rss()
    return out


def _timed(search, questions: list[str]) -> list[float]:
    """Each question's search, timed (wall)."""
    spent = []
    for q in questions:
        t = time.perf_counter()
        search(q)
        spent.append(time.perf_counter() - t)
    return spent


def _unnamed(questions: list[str], records: list[dict]) -> list[str]:
    """The questions with every speaker's name made "someone": no person named, so the memory
    scores every turn (its person scope scores only the named person's conversations)."""
    names = sorted({rec["speaker"] for rec in records if rec["id"].startswith("r0/")}, key=len, reverse=True)
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
    return [pattern.sub("someone", q) for q in questions]


def _closed_and_reopened(mem, where: Path, question: str) -> dict:
    """The saved memory closed (its postings kept, graphmem.store.sqlite.snapshot) and reopened by a
    fresh process, as a program that restarts would; then reopened without the snapshot, as after
    a process killed before it closed (the postings rebuilt)."""
    updates = mem.options.updates  # reopened with the options it was saved with, as its snapshot was
    cpu = time.process_time()
    mem.close()
    out = {"close cpu": time.process_time() - cpu, **_reopen(where, question, "", updates)}
    db = sqlite3.connect(where)
    db.execute("DELETE FROM snapshot")
    db.commit()
    db.close()
    return {**out, **_reopen(where, question, "rebuilt ", updates)}


def _reopen(where: Path, question: str, label: str, updates: bool = True) -> dict:
    """The saved memory reopened in a fresh process (:data:`REOPEN`), its figures named after ``label``."""
    done = subprocess.run([sys.executable, "-c", REOPEN, str(where), question, "1" if updates else "0"],
                          capture_output=True, text=True,
                          check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    got = json.loads(done.stdout)
    if got.pop("snapshot") != (not label):
        raise SystemExit(f"the reopen {'with' if not label else 'without'} a snapshot did not go that way")
    return {label + k: v for k, v in got.items()}


def _rss() -> float:
    """The process's peak resident set so far, in MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def claims_cost(data: str, trials: int) -> str:
    """What reading claims costs an ingest (LoCoMo once, CPU): every turn's claims read at once,
    as a bulk ingest reads them, and one turn at a time for the first ``trials`` conversations'
    turns, as a program feeding the memory turn by turn makes it read them."""
    from graphmem.data.records import validate
    from graphmem.store.claims import MemoryClaims

    records = validate(copies(data, 1)[0], set())
    cpu = time.process_time()
    MemoryClaims().add(records)
    bulk = time.process_time() - cpu
    convs = list(dict.fromkeys(r.conversation for r in records))[:max(1, trials)]
    fed = [r for r in records if r.conversation in convs]
    claims, cpu = MemoryClaims(), time.process_time()
    for r in fed:
        claims.add([r])
    one = (time.process_time() - cpu) / len(fed)
    return (f"claims (LoCoMo, CPU): bulk {len(records) / bulk:.0f} turns/s ({1e6 * bulk / len(records):.0f} us a turn);"
            f" one turn at a time {1000 * one:.2f} ms a turn ({len(fed)} turns of {len(convs)} conversations)")


def _row(m: dict) -> str:
    ms = lambda key: f"{1000 * m[key]:.2f}"  # noqa: E731
    reopen = (f"  close {m['close cpu']:.2f} s CPU, reopen {m['reopen']:.2f} s ({m['reopen cpu']:.2f} s CPU;"
              f" rebuilt, as after a crash: {m['rebuilt reopen']:.2f} s, {m['rebuilt reopen cpu']:.2f} s CPU)"
              if "reopen" in m else "")
    return (f"r={m['r']:<3} {m['turns']:>7} turns  bulk {m['bulk turns/s']:>6.0f} turns/s"
            f" (claims read: {m['claims turns/s']:.0f})  one+search {ms('one p50')} / {ms('one p95')} ms"
            f" (CPU {ms('one cpu p50')}; its claims: {ms('claims p50')})  warm {ms('warm p50')} / {ms('warm p95')} ms"
            f" (no one named: {ms('unnamed p50')})  |  FTS5 one+search {ms('fts one p50')} ms  warm"
            f" {ms('fts warm p50')} / {ms('fts warm p95')} ms (no one named: {ms('fts unnamed p50')})  |  "
            f"RSS {m['rss ingest MB']:.0f} MB (claims read: {m['rss MB']:.0f}; with FTS5: {m['rss all MB']:.0f}){reopen}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", default=DEFAULT_DATA)
    p.add_argument("--r", default="1,4,16", help="comma-separated copy counts, one process each")
    p.add_argument("--trials", type=int, default=30)
    p.add_argument("--path", action="store_true", help="Memory(path=...) in a temporary file, not Memory()")
    p.add_argument("--stream", action="store_true",
                   help="feed the memory one copy per ingest, holding no other copy's input records")
    p.add_argument("--no-updates", action="store_true",
                   help="MemoryOptions(updates=False): the store's order, without the knowledge updates' rules")
    p.add_argument("--one", type=int, help=argparse.SUPPRESS)  # the child process: measure one r
    p.add_argument("--claims", action="store_true", help="only what reading claims costs an ingest (LoCoMo once)")
    args = p.parse_args(argv)
    if args.claims:
        print(claims_cost(args.data, 10))
        return 0
    if args.one is not None:
        print(json.dumps(measure(args.data, args.one, args.trials, args.path, args.stream, not args.no_updates)))
        return 0
    fed = ", one copy per ingest (the bench holding copy 0 and the copy being ingested)" if args.stream else ""
    print(f"{'Memory(path=...)' if args.path else 'Memory()'}, {args.trials} trials per figure, LoCoMo x r{fed}")
    for r in (int(x) for x in args.r.split(",")):
        argv_child = [sys.executable, __file__, "--data", args.data, "--trials", str(args.trials), "--one", str(r)]
        flags = (["--path"] if args.path else []) + (["--stream"] if args.stream else []) \
            + (["--no-updates"] if args.no_updates else [])
        done = subprocess.run(argv_child + flags, capture_output=True, text=True)
        if done.returncode:
            print(f"r={r}: failed\n{done.stderr}", file=sys.stderr)
            return 1
        print(_row(json.loads(done.stdout.strip().splitlines()[-1])), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
