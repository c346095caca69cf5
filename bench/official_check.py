#!/usr/bin/env python
"""Score a predictions file with the official LoCoMo scorer and with graphmem.bench.locomo.metric, side by side.

    python bench/official_check.py PREDICTIONS.json
    python bench/official_check.py PREDICTIONS.json --official PATH/TO/task_eval/evaluation.py
    LOCOMO_EVAL=PATH/TO/task_eval/evaluation.py python bench/official_check.py PREDICTIONS.json

PREDICTIONS.json is what ``graphmem bench --out`` writes (the official LoCoMo layout,
``<arm>_prediction`` and ``<arm>_prediction_context`` per question). Every arm is
scored by the official ``eval_question_answering(qas, eval_key)`` and by
``graphmem.bench.locomo.metric``; the per-category F1 and recall of both are printed, and every
figure, and every single question, where the two differ by more than 1e-9 is flagged.
Exit status: 0 when everything agrees but for the documented difference below, 1 on any
other difference, 2 on a usage problem (no official scorer, unreadable predictions file).

The one documented difference: graphmem.bench.locomo.metric.recall scores an empty context 0
first, even for a question without evidence (a memory that returned nothing found
nothing), where the official recall awards 1 to a question without evidence whatever
the context. A question with an empty context and no evidence, scored 1 officially and
0 by graphmem, is that difference and nothing else: such questions are counted and
listed per arm, and the figures are compared with the official recall of exactly those
questions taken as 0; they are not counted as differences. Any other value there is.

evaluation.py is not part of graphmem (it is the LoCoMo authors' code and the
dataset's license differs) and is never copied into this repository. It is found in
this order: ``--official PATH``, ``$LOCOMO_EVAL``, then the shared data directory the
tests read (``$GRAPHMEM_SHARED``, else ``../shared/data`` beside the checkout) as
``official/evaluation.py``. Elsewhere, take ``task_eval/evaluation.py`` from the
snap-research/LoCoMo GitHub repository.

Adaptations, none of which touch the official file:

* The official recall reads ``context[0]`` (to tell session ids from dialogue ids),
  so a question whose arm returned nothing would crash it. For an empty context the
  placeholder ``['D0:0']``, which matches no evidence, is passed instead: recall 0 for
  a question with evidence, which is what graphmem.bench.locomo.metric.recall defines for an
  empty context (without evidence the official code awards 1 whatever the context:
  the documented difference above).
* An adversarial question without ``answer`` is given ``answer: ""`` (the official
  category-5 branch never reads it, but the code reads the key before branching).
* Modules the official file imports at the top but ``eval_question_answering`` never
  calls (e.g. ``bert_score``) are replaced by stubs when not installed; a note says so.
* The official function's progress line on stdout is swallowed.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import os
import sys
import types
from pathlib import Path

from graphmem.bench.locomo import metric
from graphmem.bench.locomo import stats
from graphmem.errors import GraphmemError

TOLERANCE = 1e-9
PLACEHOLDER = ["D0:0"]
REPO = Path(__file__).resolve().parents[1]
SHARED_COPY = Path("official") / "evaluation.py"  # inside the shared data directory
WHERE = ("get task_eval/evaluation.py from the snap-research/LoCoMo GitHub repository "
         "(https://github.com/snap-research/LoCoMo) and pass --official PATH, set LOCOMO_EVAL, "
         f"or put it in the shared data directory as {SHARED_COPY} (set GRAPHMEM_SHARED)")
ROWS = [("single hop", {4}), ("multi hop", {1}), ("temporal", {2}), ("open domain", {3}),
        ("adversarial", {5}), ("answerable", {1, 2, 3, 4}), ("overall", {1, 2, 3, 4, 5})]


def _stub(name: str) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__path__ = []  # a package, so that submodule imports find it too

    def missing(attr: str):
        if attr.startswith("__"):
            raise AttributeError(attr)

        def unavailable(*args, **kwargs):
            raise RuntimeError(f"{name}.{attr} was stubbed by official_check.py (module not installed)")

        return unavailable

    module.__getattr__ = missing
    return module


def import_official(path: Path) -> tuple[types.ModuleType, list[str]]:
    """Import evaluation.py from ``path``; stub top-level imports that are not installed."""
    notes: list[str] = []
    sys.path.insert(0, str(path.parent))
    try:
        for _ in range(20):
            spec = importlib.util.spec_from_file_location("locomo_official_evaluation", path)
            module = importlib.util.module_from_spec(spec)
            try:
                spec.loader.exec_module(module)
            except ModuleNotFoundError as exc:
                name = exc.name
                if not name or name in sys.modules or name.split(".")[0] in ("nltk", "numpy"):
                    raise
                sys.modules[name] = _stub(name)
                notes.append(f"note: {name} is not installed; stubbed (eval_question_answering does not call it)")
                continue
            if not hasattr(module, "eval_question_answering"):
                raise GraphmemError(f"{path}: no eval_question_answering function: not LoCoMo's evaluation.py")
            return module, notes
        raise GraphmemError(f"{path}: too many missing imports")
    finally:
        sys.path.remove(str(path.parent))


def official_scores(module: types.ModuleType, preds: stats.Predictions, arm: str) -> tuple[list[float], list[float], int]:
    """The official per-question F1 and recall of ``arm``, and how many placeholders were used."""
    eval_key = arm + "_prediction"
    placeholders = 0
    qas = []
    for q in preds.questions:
        row = {"question": q.text, "answer": q.answer, "evidence": list(q.evidence),
               "category": q.category, eval_key: q.replies[arm]}
        context = list(q.contexts.get(arm, ()))
        if not context:
            context = list(PLACEHOLDER)
            placeholders += 1
        row[eval_key + "_context"] = context
        qas.append(row)
    with contextlib.redirect_stdout(io.StringIO()):
        result = module.eval_question_answering(qas, eval_key)
    f1s, recalls = list(result[0]), list(result[-1])
    if len(f1s) != len(qas) or len(recalls) != len(qas):
        raise GraphmemError(f"official eval_question_answering returned {len(f1s)} scores and "
                            f"{len(recalls)} recalls for {len(qas)} questions")
    return [float(x) for x in f1s], [float(x) for x in recalls], placeholders


def _fmt(value: float | None) -> str:
    return "     n/a" if value is None else f"{value:8.6f}"


def documented(q: stats.QA, arm: str, official: float, ours: float) -> bool:
    """Is this question's recall the one documented difference, and only it?

    An empty context for a question without evidence: graphmem.bench.locomo.metric.recall scores
    it 0 (nothing returned, nothing found), the official recall 1 (no evidence, whatever
    the context). Only that exact pair is the documented case; any other value there is a
    real disagreement and must still be flagged.
    """
    return not q.contexts.get(arm) and not q.evidence and official == 1.0 and ours == 0.0


def compare_rows(cats: list[int], f1s: tuple[list[float], list[float]],
                 recalls: tuple[list[float], list[float]] | None, excused: set[int]) -> bool:
    """Print the per-category table of one arm; True when no figure differs.

    The official recall printed is the official scorer's own; it is compared with
    graphmem's after the ``excused`` (documented) questions are taken as 0, the value
    graphmem defines for them, so a row that differs only through them is not a
    difference, and the row says how many it holds.
    """
    agree = True
    off_f1, ours_f1 = f1s
    off_rec, ours_rec = recalls if recalls is not None else ([], [])
    expected = [0.0 if i in excused else r for i, r in enumerate(off_rec)]
    print(f"  {'category':<12} {'n':>5}  {'F1 official':>11} {'F1 graphmem':>11}  "
          f"{'recall official':>15} {'recall graphmem':>15}")
    for label, members in ROWS:
        idx = [i for i, c in enumerate(cats) if c in members]
        if not idx:
            continue

        def mean(values: list[float]) -> float:
            return sum(values[i] for i in idx) / len(idx)

        f1_o, f1_g = mean(off_f1), mean(ours_f1)
        rec_o, rec_g = (mean(off_rec), mean(ours_rec)) if recalls is not None else (None, None)
        flags, notes = [], []
        if abs(f1_o - f1_g) > TOLERANCE:
            flags.append("F1 DIFFERS")
        if recalls is not None and abs(mean(expected) - rec_g) > TOLERANCE:
            flags.append("RECALL DIFFERS")
        elif recalls is not None and abs(rec_o - rec_g) > TOLERANCE:
            notes.append(f"recall: {sum(i in excused for i in idx)} documented (empty context, no evidence)")
        agree &= not flags
        print(f"  {label:<12} {len(idx):>5}  {_fmt(f1_o):>11} {_fmt(f1_g):>11}  "
              f"{_fmt(rec_o):>15} {_fmt(rec_g):>15}  {' '.join(flags + notes)}".rstrip())
    return agree


def check_arm(preds: stats.Predictions, module: types.ModuleType, arm: str) -> tuple[bool, int]:
    """Score one arm both ways and print it; (no difference, documented cases)."""
    cats = [q.category for q in preds.questions]
    off_f1, off_rec, placeholders = official_scores(module, preds, arm)
    ours_f1 = [metric.grade(q.category, q.replies[arm], q.answer) for q in preds.questions]
    ours_rec = [metric.recall(q.contexts.get(arm, ()), q.evidence) for q in preds.questions]
    has_context = any(arm in q.contexts for q in preds.questions)
    excused = {i for i, q in enumerate(preds.questions)
               if has_context and documented(q, arm, off_rec[i], ours_rec[i])}

    print(f"arm {arm}: {len(cats):,} questions"
          + (f"; {placeholders:,} empty contexts scored with placeholder {PLACEHOLDER}" if has_context
             else "; no contexts in file, recall not compared"))
    agree = compare_rows(cats, (off_f1, ours_f1), (off_rec, ours_rec) if has_context else None, excused)

    if excused:
        print(f"  {len(excused)} question(s) with an empty context and no evidence: recall official 1.0, "
              "graphmem 0.0, the documented difference (not counted):")
        for i in sorted(excused):
            q = preds.questions[i]
            print(f"    sample {q.sample_id} question {q.index} (category {q.category})")
    differ = [i for i in range(len(cats))
              if abs(off_f1[i] - ours_f1[i]) > TOLERANCE
              or (has_context and i not in excused and abs(off_rec[i] - ours_rec[i]) > TOLERANCE)]
    if differ:
        agree = False
        print(f"  {len(differ)} question(s) differ, first {min(5, len(differ))}:")
        for i in differ[:5]:
            q = preds.questions[i]
            print(f"    sample {q.sample_id} question {q.index} (category {q.category}): "
                  f"F1 official {off_f1[i]!r} graphmem {ours_f1[i]!r}; "
                  f"recall official {off_rec[i]!r} graphmem {ours_rec[i]!r}; reply {q.replies[arm]!r}")
    print()
    return agree, len(excused)


def check(preds: stats.Predictions, module: types.ModuleType) -> tuple[bool, int]:
    """Every arm of ``preds``; (no difference anywhere, documented cases over all arms)."""
    agree, excused = True, 0
    for arm in preds.arms:
        arm_agrees, arm_excused = check_arm(preds, module, arm)
        agree &= arm_agrees
        excused += arm_excused
    return agree, excused


def find_official(given: str | None) -> Path | None:
    """Where the official scorer is: ``given``, ``$LOCOMO_EVAL``, else the shared data's copy.

    The shared data directory is looked up as the tests look it up (``$GRAPHMEM_SHARED``,
    else ``../shared/data`` beside the checkout), so CI and a local run find the copy kept
    there without it ever being committed here (its license is LoCoMo's, not graphmem's).
    """
    if given:
        return Path(given).expanduser()
    if os.environ.get("LOCOMO_EVAL"):
        return Path(os.environ["LOCOMO_EVAL"]).expanduser()
    root = os.environ.get("GRAPHMEM_SHARED")
    base = Path(root).expanduser() if root else REPO.parent / "shared" / "data"
    copy = base / SHARED_COPY
    return copy if copy.is_file() else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("predictions", help="predictions file written by graphmem bench --out")
    parser.add_argument("--official", default=None,
                        help="path to LoCoMo's task_eval/evaluation.py (default: $LOCOMO_EVAL, "
                             f"else {SHARED_COPY} in $GRAPHMEM_SHARED or ../shared/data)")
    args = parser.parse_args(argv)

    official = find_official(args.official)
    if official is None:
        print(f"official_check: no official scorer found: {WHERE}", file=sys.stderr)
        return 2
    if not official.is_file():
        print(f"official_check: {official} not found: {WHERE}", file=sys.stderr)
        return 2
    try:
        preds = stats.load_predictions(args.predictions)
        module, notes = import_official(official)
        for note in notes:
            print(note)
        print(f"official scorer: {official.resolve()}")
        n = len(preds.samples)
        print(f"predictions: {preds.path} ({n} conversation{'' if n == 1 else 's'}, arms: {', '.join(preds.arms)})\n")
        agree, excused = check(preds, module)
    except GraphmemError as exc:
        print(f"official_check: {exc}", file=sys.stderr)
        return 2
    if agree:
        print(f"every figure agrees within {TOLERANCE:g}: {len(preds.questions):,} questions, "
              f"{len(preds.arms)} arm(s); {excused} recall(s) differ by the documented difference "
              "only (empty context, no evidence: listed above)")
        return 0
    print("DIFFERENCES between the official scorer and graphmem.bench.locomo.metric (flagged above)")
    return 1


if __name__ == "__main__":
    sys.exit(main())
