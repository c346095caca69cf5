"""Run every command the README and docs quote against two source trees and compare the outputs.

Why: a restructuring claims to change no behaviour. The claim is only worth something if the
commands that print the published figures print the same bytes before and after it. Timing lines
are the one thing allowed to differ, so they are masked (see ``MASKS``); everything else must be
identical.

    python bench/same_output.py run  --tree OLD_CHECKOUT --out /tmp/before
    python bench/same_output.py run  --tree .            --out /tmp/after
    python bench/same_output.py diff /tmp/before /tmp/after

``--only NAME,NAME`` runs a subset; ``--neo4j`` adds the commands that need the server
(``NEO4J_URI``). Each tree is put first on ``PYTHONPATH``, so an old commit checked out with
``git worktree add`` runs as it was, with this machine's installed dependencies.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("GRAPHMEM_SHARED", ROOT.parent / "shared" / "data"))
LOCOMO = os.environ.get("GRAPHMEM_LOCOMO", str(SHARED / "locomo10.json"))
BENCH6 = os.environ.get("GRAPHMEM_BENCH6", str(SHARED / "bench6"))
CLI = "import sys; sys.argv[0] = 'graphmem'; from graphmem.cli import main; main()"

# name -> argv after `graphmem` (a list), or ("script", path, args) for a bench/ script.
# "{out}" is a scratch directory shared by the commands of one run (bench --out, then stats).
COMMANDS: dict[str, list[str] | tuple[str, str, list[str]]] = {
    "bench": ["bench", "--data", LOCOMO],
    "show5": ["bench", "--data", LOCOMO, "--show", "5"],
    "factor": ["bench", "--data", LOCOMO, "--arms", "factor"],
    "walk": ["bench", "--data", LOCOMO, "--arms", "walk"],
    "walk-blind": ["bench", "--data", LOCOMO, "--arms", "walk", "--blind"],
    "relative": ["bench", "--data", LOCOMO, "--confidence", "relative"],
    "hops": ["bench", "--data", LOCOMO, "--arms", "hops"],
    "read": ["bench", "--data", LOCOMO, "--arms", "read"],
    "reach": ["bench", "--data", LOCOMO, "--arms", "graph,vector", "-k", "2000", "--floor", "0"],
    "sweep-floor": ["bench", "--data", LOCOMO, "--sweep", "floor"],
    "build": ["bench", "--data", LOCOMO, "--build"],
    "out": ["bench", "--data", LOCOMO, "--out", "{out}/answers.json"],
    "stats": ["stats", "{out}/answers.json"],
    "stats-json": ["stats", "{out}/answers.json", "--json"],
    "stats-by-category": ["stats", "{out}/answers.json", "--by-category"],
    "dense-arms": ["bench", "--data", LOCOMO, "--arms", "dense,fused,vector"],
    "ask": ["ask", "What did Caroline research?", "--conversation", "conv-26", "--data", LOCOMO],
    "search": ["search", "What did Caroline research?", "--data", LOCOMO],
    "bench6": ["bench6", "--data", BENCH6],
    "bench6-dense": ["bench6", "--data", BENCH6, "--dense"],
    "py-reach": ("script", "bench/reach.py", ["--data", LOCOMO]),
    "py-tried": ("script", "bench/tried.py", ["--data", LOCOMO]),
    "py-memory-plain": ("script", "bench/memory_locomo.py", ["--data", LOCOMO, "--compare", "plain"]),
    "py-memory-pools": ("script", "bench/memory_locomo.py",
                        ["--data", LOCOMO, "--pools", "--compare", "context-reach-1"]),
    "py-bench6-misses": ("script", "bench/bench6_misses.py", ["--data", BENCH6, "--locomo", LOCOMO]),
    "py-memory": ("script", "bench/memory_locomo.py", ["--data", LOCOMO]),
    "longmemeval-50": ["longmemeval", "--limit", "50"],
}
NEO4J_COMMANDS: dict[str, list[str] | tuple[str, str, list[str]]] = {
    "neo4j-load": ["load", "--data", LOCOMO, "--quiet"],
    "neo4j-walk": ["bench", "--data", LOCOMO, "--arms", "walk", "--backend", "neo4j"],
    "neo4j-walk-blind": ["bench", "--data", LOCOMO, "--arms", "walk", "--backend", "neo4j", "--blind"],
}

# What may differ between two runs of the same code: how long it took.
MASKS = [
    (re.compile(r"^cpu \d.*$", re.M), "cpu <masked>"),
    (re.compile(r"^timing: .*$", re.M), "timing: <masked>"),
    (re.compile(r"\d+(\.\d+)? ?(s|ms)\b( CPU| wall)?"), "<t>"),
    (re.compile(r"\(\d+ rows/s\)"), "(<rate>)"),
    (re.compile(r"\d[\d,]* (tokens|rows)/s"), "<rate>"),
    # graphmem longmemeval's CPU table (seconds per question per phase) and its index-build ratio
    (re.compile(r"^(  [\w-]+ +\d+)(?: +\d+\.\d{3}){4}$", re.M), r"\1 <cpu>"),
    (re.compile(r"index build: \d+(\.\d+)?x"), "index build: <ratio>x"),
]


def masked(text: str) -> str:
    for pattern, repl in MASKS:
        text = pattern.sub(repl, text)
    return text


def run(tree: Path, out: Path, names: list[str]) -> None:
    """Run each named command with ``tree`` first on the path; keep stdout, stderr and the exit code."""
    out.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="same-output-"))
    env = dict(os.environ, PYTHONPATH=str(tree.resolve()), MPLBACKEND="Agg", GRAPHMEM_LOCOMO=LOCOMO, GRAPHMEM_BENCH6=BENCH6,
               GRAPHMEM_SHARED=str(SHARED))
    table = {**COMMANDS, **NEO4J_COMMANDS}
    for name in names:
        spec = table[name]
        if isinstance(spec, tuple):
            argv = [sys.executable, str(tree / spec[1]), *spec[2]]
        else:
            argv = [sys.executable, "-c", CLI, *[a.replace("{out}", str(scratch)) for a in spec]]
        done = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True)
        text = f"exit {done.returncode}\n--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}"
        (out / f"{name}.txt").write_text(text.replace(str(scratch), "{out}"))
        print(f"{name}: exit {done.returncode}", flush=True)


def diff(before: Path, after: Path) -> int:
    """Compare two runs' outputs, timing masked; print each difference; 0 when none."""
    names = sorted({p.name for p in before.glob("*.txt")} | {p.name for p in after.glob("*.txt")})
    differing = skipped = 0
    for name in names:
        a, b = before / name, after / name
        if not b.exists():
            print(f"{name}: not run after (skipped)")
            skipped += 1
            continue
        if not a.exists():
            print(f"{name}: only in after")
            differing += 1
            continue
        old, new = masked(a.read_text()), masked(b.read_text())
        if old == new:
            print(f"{name}: identical")
            continue
        differing += 1
        print(f"{name}: DIFFERS")
        sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True), "before", "after", n=1))
    compared = len(names) - skipped
    print(f"{compared - differing} of {compared} outputs identical (timing masked)")
    return 1 if differing else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="verb", required=True)
    r = sub.add_parser("run")
    r.add_argument("--tree", type=Path, default=ROOT)
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--only", help="comma-separated command names (default: all but the Neo4j ones)")
    r.add_argument("--neo4j", action="store_true", help="also the commands that need a Neo4j server")
    d = sub.add_parser("diff")
    d.add_argument("before", type=Path)
    d.add_argument("after", type=Path)
    args = p.parse_args(argv)
    if args.verb == "diff":
        return diff(args.before, args.after)
    names = args.only.split(",") if args.only else [*COMMANDS, *(NEO4J_COMMANDS if args.neo4j else [])]
    run(args.tree, args.out, names)
    return 0


if __name__ == "__main__":
    sys.exit(main())
