"""Is this checkout slower than another? The same measurements run on both, interleaved, in one run.

    python bench/against_base.py --base ../base [--repeat 3] [--only bench,ram,file]

``--base`` is a checkout of the code to compare against (``git worktree add ../base 8f6d354``).
Each measurement runs as a child process in one tree, then in the other, ``--repeat`` times, so
that a shared machine's load falls on both alike; each figure is the median over the repeats. A
child imports the graphmem of its own tree (``PYTHONPATH``), and runs that tree's own script, so
each tree is measured the way it measured itself.

- ``bench``: ``bench/perf.py --sets default --repeat 1``: the whole ``graphmem bench`` command's CPU.
- ``ram`` / ``file``: ``bench/memory_scale.py --r R --stream`` (``--path`` for ``file``): one-turn
  ingest + search (wall and CPU) and warm search at each ``--r``, beside SQLite FTS5 in the same
  child. Here a third column runs this tree with ``--no-updates``: the knowledge updates' rules
  are the one thing the memory's search does that the base did not, so that column separates
  their cost from the store's.
- ``load``: ``graphmem load --data D --quiet`` of every LoCoMo conversation into an empty
  database: the seconds the command prints (its load phase; the base's excluded the search fields
  it wrote afterwards, this tree's include them), the child's wall and its CPU (user + system).
  It needs ``--neo4j URI`` (password ``NEO4J_PASSWORD``), a server of its own: the whole database
  is emptied before each load (every node, the schema kept), so that every load, in either tree,
  starts from the same state. One load per tree runs first and is not counted: a server plans a
  statement the first time it meets it, and the first load of a server just started is a
  different measurement (docs/neo4j.md, "Loading").
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
NUMBER = r"([\d.]+)"
SCALE = {
    "one+search p50 ms": rf"one\+search {NUMBER} /",
    "one+search CPU ms": rf"one\+search [\d.]+ / [\d.]+ ms \(CPU {NUMBER}",
    "warm search p50 ms": rf"  warm {NUMBER} /",
    "FTS5 warm p50 ms": rf"FTS5 one\+search [\d.]+ ms  warm {NUMBER}",
}


def _run(tree: Path, args: Sequence[str]) -> str:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, *args], cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {' '.join(args)} failed: {done.stderr.strip().splitlines()[-1:]}")
    return done.stdout


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _empty(uri: str) -> None:
    """Every node of the database at ``uri`` deleted (the schema kept), in batches."""
    from neo4j import GraphDatabase  # lazy: only the load measurement needs the driver

    with GraphDatabase.driver(uri, auth=("neo4j", os.environ.get("NEO4J_PASSWORD", "graphmem-dev"))) as driver:
        while driver.execute_query("MATCH (n) WITH n LIMIT 20000 DETACH DELETE n RETURN count(*) AS c")[0][0]["c"]:
            pass


def _load(tree: Path, data: str, uri: str) -> dict[str, float]:
    """One ``graphmem load`` of ``data`` into the emptied database: its printed seconds, wall and CPU."""
    _empty(uri)
    env = {**os.environ, "PYTHONPATH": str(tree), "NEO4J_URI": uri}
    cpu, wall = _children_cpu(), time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "graphmem.cli", "load", "--data", data, "--quiet"], cwd=tree,
                          env=env, capture_output=True, text=True, check=False)
    wall, cpu = time.perf_counter() - wall, _children_cpu() - cpu
    if done.returncode != 0:
        raise SystemExit(f"{tree}: graphmem load failed: {done.stderr.strip().splitlines()[-1:]}")
    phase = re.search(rf"rows in {NUMBER}s", done.stdout)
    if phase is None:
        raise SystemExit(f"{tree}: graphmem load printed no 'rows in ...s' line")
    return {"graphmem load, printed s": float(phase.group(1)), "graphmem load, wall s": wall,
            "graphmem load, CPU s": cpu}


def _bench(out: str) -> dict[str, float]:
    cpu = re.search(rf"^default\s+{NUMBER}\s+{NUMBER}", out, re.M)
    return {"graphmem bench CPU s": float(cpu.group(1))} if cpu else {}


def _scale(out: str, r: int) -> dict[str, float]:
    line = next((x for x in out.splitlines() if x.startswith(f"r={r} ")), "")
    got = {}
    for name, pattern in SCALE.items():
        m = re.search(pattern, line)
        if m:
            got[f"r={r} {name}"] = float(m.group(1))
    return got


def _measure(what: str, tree: Path, data: str, rs: list[int], trials: int, extra: Sequence[str] = (),
             neo4j: str | None = None) -> dict:
    if what == "load":
        return _load(tree, data, neo4j or "")
    if what == "bench":
        return _bench(_run(tree, ["bench/perf.py", "--sets", "default", "--repeat", "1", "--data", data]))
    args = ["bench/memory_scale.py", "--data", data, "--r", ",".join(map(str, rs)), "--trials", str(trials),
            "--stream", *(["--path"] if what == "file" else []), *extra]
    out = _run(tree, args)
    return {k: v for r in rs for k, v in _scale(out, r).items()}


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", type=Path, required=True, help="a checkout of the code to compare against")
    ap.add_argument("--data", default=str(HERE.parent / "shared" / "data" / "locomo10.json"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--r", default="4,16", help="memory_scale's copy counts")
    ap.add_argument("--trials", type=int, default=50)
    ap.add_argument("--only", default="bench,ram,file", help="any of bench, ram, file, load")
    ap.add_argument("--neo4j", default=None, metavar="URI",
                    help="for load: a Neo4j server of its own (the whole database is emptied before each load)")
    args = ap.parse_args(argv)
    if "load" in args.only.split(",") and not args.neo4j:
        ap.error("--only load needs --neo4j URI: a server of its own, emptied before each load")
    rs = [int(x) for x in args.r.split(",")]
    data = str(Path(args.data).resolve())
    columns = {"base": (args.base.resolve(), ()), "here": (HERE, ()), "here, no updates": (HERE, ("--no-updates",))}
    runs: dict[str, dict[str, list[float]]] = {c: {} for c in columns}
    for what in args.only.split(","):
        if what == "load":  # not counted: each tree's statements planned once on this server
            for tree in (args.base.resolve(), HERE):
                _load(tree, data, args.neo4j)
        for _ in range(args.repeat):
            for column, (tree, extra) in columns.items():
                if what in ("bench", "load") and extra:
                    continue
                for k, v in _measure(what, tree, data, rs, args.trials, extra, args.neo4j).items():
                    runs[column].setdefault(f"{what}: {k}", []).append(v)
                print(".", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"medians of {args.repeat} interleaved runs; base {args.base}, here {HERE}")
    print(f"{'figure':40} {'base':>8} {'here':>8} {'ratio':>6} {'no upd.':>8} {'ratio':>6}")
    for key in runs["here"]:
        b, h = (statistics.median(runs[c].get(key, [float('nan')])) for c in ("base", "here"))
        n = statistics.median(runs["here, no updates"].get(key, [float("nan")]))
        print(f"{key:40} {b:8.2f} {h:8.2f} {h / b:6.2f} {n:8.2f} {n / b:6.2f}")


if __name__ == "__main__":
    main()
