"""The memory's choices measured on LongMemEval: the shipped memory against variants, same questions.

    python bench/longmemeval_compare.py [--data FILE] [--variant s|oracle] [--limit N] [--views all,official]
                                        --compare VARIANT[,VARIANT...]

Each question's haystack goes into a fresh memory per variant (the memory alone: the BM25
baseline is ``graphmem longmemeval``'s), and the key figures are printed side by side: turn
recall_any@1 and recall_all@5/@10, session recall_any@5 and recall_all@5 per view; quiet on
answerable and on ``_abs`` questions, the confidence AUC and token F1; CPU per question. For
turn recall_any@1 (all turns) it also counts the questions each variant wins and loses against
the shipped memory, with a two-sided exact sign test (scipy's binomial test on the questions
where they differ). Variants are :class:`graphmem.index.options.MemoryOptions` with one field
changed, or one step done by an implementation here (``VARIANTS``):

``no-context``
    no reply field anywhere (``MemoryOptions.context``): what the shape rule does to
    person-assistant dialogue, applied to every turn.
``shape-off``
    the memory does not tell person-assistant dialogue from two-party dialogue
    (``MemoryOptions.shape``): every conversation is read as LoCoMo's.
``assistant-no-context`` / ``user-no-context``
    only the assistant's turns (or only the user's) lose their reply field, the shape not told
    (a ``contexts`` strategy: the bulk index).
``extractive``
    the bench's reader instead of the readable one (``MemoryOptions.reader``): what the memory
    replied before it, one phrase of a sentence when an assistant's turn was found, else the
    chosen sentences' rarest words.
``phrase-never`` / ``phrase-always``
    the bench's reader (``extractive``) replying with the chosen sentence's rarest words in order,
    or always with one phrase of it (``MemoryOptions.phrase``).
``asker-off``
    a first-person question's matched turns count alike whoever said them
    (``MemoryOptions.asker``; shipped: the person's own count one more term).
``undated``
    the question searched as of no date (no ``asked_on``), so its relative dates ("10 days ago")
    name no day; shipped: as of its ``question_date``.
``sure-known``
    the confidence leaves out the question's terms no turn holds, as the bench's Sure does
    (``MemoryOptions.sure_unseen``; shipped: they count, uncovered, at the largest weight).
``floor-0.4`` / ``floor-0.5``
    the floor ``ask`` abstains below.

The machine this runs on may be loaded: compare CPU between variants of one run, not across runs.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from scipy.stats import binomtest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from graphmem.domain import Turn  # noqa: E402
from graphmem.bench.longmemeval import load as loader  # noqa: E402
from graphmem.bench.longmemeval.report import summary  # noqa: E402
from graphmem.bench.longmemeval.run import Result, Settings, run  # noqa: E402
from graphmem.index.options import MemoryOptions  # noqa: E402
from graphmem.bench.research.strategies import Strategies  # noqa: E402

SHIPPED = Settings(baseline=False)


def _contexts_except(role: str) -> Callable[[Sequence[Turn], Sequence[str], Sequence[int | None]], list[str]]:
    """The shipped reply field, emptied for the turns ``role`` says."""

    def contexts(records: Sequence[Turn], said: Sequence[str], replied: Sequence[int | None]) -> list[str]:
        return ["" if r.speaker == role or j is None else said[j] for r, j in zip(records, replied)]

    return contexts


def _variants() -> dict[str, Settings]:
    opts = MemoryOptions()
    return {
        "no-context": replace(SHIPPED, options=replace(opts, context=False)),
        "shape-off": replace(SHIPPED, options=replace(opts, shape=False)),
        "assistant-no-context": replace(SHIPPED, options=replace(opts, shape=False),
                                        strategies=Strategies(contexts=_contexts_except("assistant"))),
        "user-no-context": replace(SHIPPED, options=replace(opts, shape=False),
                                   strategies=Strategies(contexts=_contexts_except("user"))),
        "extractive": replace(SHIPPED, options=replace(opts, reader="extractive")),
        "phrase-never": replace(SHIPPED, options=replace(opts, reader="extractive", phrase="never")),
        "phrase-always": replace(SHIPPED, options=replace(opts, reader="extractive", phrase="always")),
        "undated": replace(SHIPPED, dated=False),
        "asker-off": replace(SHIPPED, options=replace(opts, asker=False)),
        "sure-known": replace(SHIPPED, options=replace(opts, sure_unseen=False)),
        "floor-0.4": replace(SHIPPED, floor=0.4),
        "floor-0.5": replace(SHIPPED, floor=0.5),
    }


VARIANTS = _variants()


def _figures(s: dict, views: Sequence[str]) -> list[tuple[str, float | None]]:
    out = []
    for view in views:
        turn = s["retrieval"].get(f"{view}/turn", {}).get("all", {}).get("memory", {})
        session = s["retrieval"].get(f"{view}/session", {}).get("all", {}).get("memory", {})
        out += [(f"{view} turn any@1", turn.get("recall_any@1")), (f"{view} turn all@5", turn.get("recall_all@5")),
                (f"{view} turn all@10", turn.get("recall_all@10")),
                (f"{view} session any@5", session.get("recall_any@5")),
                (f"{view} session all@5", session.get("recall_all@5"))]
    a = s["answers"]["all"]
    out += [("quiet answerable", a["quiet_answerable"]), ("quiet _abs", a["quiet_abstention"]),
            ("confidence AUC", a["auc"]), ("token F1", a["f1"])]
    out.append(("CPU s / question", s["cpu_seconds"] / max(1, s["questions"])))
    return out


def _wins(base: Sequence[Result], other: Sequence[Result], f1: bool = False) -> str:
    """Questions ``other`` scores higher / lower than ``base``: turn recall_any@1 over all turns,
    or (``f1``) the reply's token F1."""
    key = "all/turn/memory"
    won = lost = 0
    for a, b in zip(base, other):
        if f1:
            won, lost = won + (b.f1 > a.f1), lost + (b.f1 < a.f1)
        elif key in a.retrieval and key in b.retrieval:
            x, y = a.retrieval[key]["recall_any@1"], b.retrieval[key]["recall_any@1"]
            won, lost = won + (y > x), lost + (y < x)
    p = binomtest(won, won + lost).pvalue if won + lost else 1.0
    return f"{won} / {lost}, p = {p:.3f}"


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=None)
    ap.add_argument("--variant", default="s", choices=["s", "oracle"])
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--views", default="all,official")
    ap.add_argument("--compare", required=True, help="comma list of: " + ", ".join(VARIANTS))
    args = ap.parse_args(argv)
    names = args.compare.split(",")
    unknown = [n for n in names if n not in VARIANTS]
    if unknown:
        ap.error(f"unknown variants: {', '.join(unknown)}")
    views = tuple(args.views.split(","))
    questions = loader.load(args.data, args.variant, args.limit)
    runs = {}
    for name in ["shipped"] + names:
        settings = replace(SHIPPED if name == "shipped" else VARIANTS[name], views=views)
        start = time.process_time()
        results = run(questions, settings)
        runs[name] = (results, summary(results, {}), time.process_time() - start)
        got = ", ".join(f"{label} {v:.3f}" for label, v in _figures(runs[name][1], views) if v is not None)
        print(f"{name} ({runs[name][2]:.1f} s CPU): {got}", flush=True)  # as each run ends: a long run is not all lost
        if name != "shipped" and "all" in views:
            print(f"  all turn any@1 won / lost against shipped: {_wins(runs['shipped'][0], results)}", flush=True)
        if name != "shipped":
            print(f"  token F1 won / lost against shipped: {_wins(runs['shipped'][0], results, f1=True)}", flush=True)
    print(f"{len(questions)} questions ({args.variant}); CPU of each whole run: "
          + ", ".join(f"{n} {c:.1f} s" for n, (_, _, c) in runs.items()))
    rows = {n: _figures(s, views) for n, (_, s, _) in runs.items()}
    print(f"  {'':<24}" + "".join(f"{n:>22}" for n in runs))
    for i, (label, _) in enumerate(rows["shipped"]):
        cells = "".join(f"{v:>22.3f}" if (v := rows[n][i][1]) is not None else f"{'-':>22}" for n in runs)
        print(f"  {label:<24}{cells}")
    if "all" in views:
        base = runs["shipped"][0]
        print("  all turn any@1 won / lost against shipped: "
              + "; ".join(f"{n} {_wins(base, runs[n][0])}" for n in names))


if __name__ == "__main__":
    main()
