"""CPU time of the benchmark, per stage and whole, for the arm sets people run.

    python bench/perf.py [--data PATH] [--sets "vector,oracle;default;walk"] [--repeat 3]

For each arm set it runs ``graphmem bench --arms SET`` as a child process (so import
time counts, as it does for a user) and reports the child's CPU seconds (user + system,
from getrusage) and wall seconds, best of ``--repeat``; then it runs the stages in this
process and reports CPU seconds per stage (load, read claims, build graphs, index,
answer, score). Targets from the issues: default set <= 3 s CPU (vector and oracle
only) / <= 4 s CPU (four arms), walk <= 6 s CPU.
"""

from __future__ import annotations

import argparse
import importlib
import os
import resource
import subprocess
import sys
import time


def child_run(args: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one ``graphmem`` child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    subprocess.run([sys.executable, "-m", "graphmem.cli", *args], check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def stages(data: str | None, arms: str) -> dict[str, float]:
    """CPU seconds per stage, run in this process (imports excluded)."""
    from graphmem.bench.arms.registry import parse_arms
    from graphmem.bench.locomo import run as b
    from graphmem.data import locomo
    from graphmem.answer.reader import ReaderSettings

    timer = b.Timer()
    t = time.process_time()
    dataset = locomo.load_dataset(data)
    timer.add("load", t)
    prep = b.prepare(dataset, parse_arms(arms), timer=timer)
    answers = b.answer(prep, b.retrieve(prep, 5), ReaderSettings())
    b.score(prep, answers, 0.30)
    return timer.stages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=os.environ.get("GRAPHMEM_LOCOMO"))
    parser.add_argument("--sets", default="vector,oracle;default;walk", help="arm sets separated by ;")
    parser.add_argument("--repeat", type=int, default=3)
    opts = parser.parse_args()
    data_args = ["--data", opts.data] if opts.data else []
    print(f"{'arms':<28}{'cpu s':>8}{'wall s':>8}   (whole command, best of {opts.repeat})")
    for arms in opts.sets.split(";"):
        runs = [child_run(["bench", "--arms", arms, *data_args]) for _ in range(opts.repeat)]
        cpu, wall = min(runs)
        print(f"{arms:<28}{cpu:8.2f}{wall:8.2f}")
    t = time.process_time()
    for name in ("graphmem.bench.locomo.run", "graphmem.bench.locomo.metric"):  # imports, timed once
        importlib.import_module(name)

    print(f"\nimports (numpy, scipy, scikit-learn, graphmem): {time.process_time() - t:.2f} s CPU")
    for arms in opts.sets.split(";"):
        per = stages(opts.data, arms)
        print(f"{arms:<14}" + "  ".join(f"{k} {v:.2f}s" for k, v in per.items()))


if __name__ == "__main__":
    main()
