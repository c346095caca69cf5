"""The memory's replies on LoCoMo: the readable reader's (what ``Memory.ask`` replies) beside the bench's.

    python bench/readable_replies.py [--data PATH] [--k 5] [--show N]

All 5,882 turns go into one shipped :class:`graphmem.memory.api.Memory`, as
``bench/memory_locomo.py --ask`` puts them. Every question is searched once
(``records_for(question, k)``), and the same turns are read twice with ``answer_from``: by the
memory's own reader (:mod:`graphmem.answer.readable`, ``MemoryOptions.reader="readable"``) and
by the bench's reader (:mod:`graphmem.answer.reader`, ``reader="extractive"``, what ``ask`` replied
before), on the same store, so the search, the confidence and the floor are the same and only the
reply differs. Each reply is graded by the official metric (``graphmem.bench.locomo.metric.grade``: an
adversarial question scores 1 for an abstention).

Printed per LoCoMo category: n; each reader's F1 and share of abstentions; how many of the readable
reader's replies quote a turn, and the share of those that are a contiguous span of the cited turn
they name (each is checked here: the reply in its sentence, the sentence in the turn, the turn
cited); how many are dates (a when-question's date read off the session, counted apart); the mean
length in words of each reader's answered replies; and, for comparison, the share of the bench's
answered replies that happen to be contiguous in some cited turn. Then the questions on which
each reader scores higher, with a two-sided exact sign test (scipy), and the CPU time of
``answer_from`` per question with each reader. ``--show N``: N questions per
category with both replies and the sentence quoted.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from scipy.stats import binomtest  # noqa: E402

from memory_locomo import DEFAULT_DATA, NAMES, _memory  # noqa: E402
from graphmem.bench.locomo.metric import grade  # noqa: E402
from graphmem.data import locomo  # noqa: E402
from graphmem.domain import Answer, Turn  # noqa: E402
from graphmem.memory.api import Memory  # noqa: E402
from graphmem.text.dates import is_when  # noqa: E402


@dataclass(frozen=True)
class Row:
    """One question: its category, both answers, the turns found, and each reply's F1."""

    category: int
    question: str
    gold: str
    ours: Answer
    bench: Answer
    found: tuple[Turn, ...]

    @property
    def f1(self) -> tuple[float, float]:
        return grade(self.category, self.ours.reply, self.gold), grade(self.category, self.bench.reply, self.gold)

    @property
    def dated(self) -> bool:
        """The readable reply is a date read off the session, not a quote."""
        return not self.ours.quiet and is_when(self.question)

    @property
    def quoted(self) -> bool:
        """The readable reply is a contiguous span of the cited turn it names, as written."""
        said = {t.id: t.text for t in self.found if t.id in self.ours.cited}
        a = self.ours
        return a.source in said and a.reply in a.sentence and a.sentence in said[a.source] and a.reply in said[a.source]

    @property
    def bench_contiguous(self) -> bool:
        return any(self.bench.reply in t.text for t in self.found if t.id in self.bench.cited)


def rows(dataset: locomo.Dataset, k: int) -> tuple[list[Row], tuple[float, float]]:
    """Every question read by both readers over the same turns found, and the CPU seconds each
    reader's ``answer_from`` took in all (confidence included, the same for both)."""
    mem = _memory(dataset, False)
    bench = Memory(store=mem.store, options=replace(mem.options, reader="extractive"))
    out, spent = [], [0.0, 0.0]
    for c in dataset.conversations:
        for q in c.questions:
            found = mem.records_for(q.text, k)
            answers = []
            for i, reader in enumerate((mem, bench)):
                start = time.process_time()
                answers.append(reader.answer_from(q.text, found))
                spent[i] += time.process_time() - start
            out.append(Row(q.category, q.text, str(q.answer), *answers, tuple(found)))
    return out, (spent[0], spent[1])


def table(got: list[Row]) -> list[str]:
    """F1, quiet, quotes, dates and length per category (the module's docstring)."""
    groups: dict[str, list[Row]] = defaultdict(list)
    for r in got:
        groups[NAMES[r.category]].append(r)
        if r.category != locomo.ADVERSARIAL:
            groups["answerable"].append(r)
        groups["all"].append(r)
    lines = [f"  {'':<13} {'':>5}  {'readable (ask)':>13}  {'bench reader':>13}  {'readable quotes':>20}  {'':>5}"
             f"  {'words':>10}  {'bench':>10}",
             f"  {'category':<13} {'n':>5}  {'F1':>6} {'quiet':>6}  {'F1':>6} {'quiet':>6}  {'n':>6} {'in a turn':>13}"
             f"  {'dates':>5}  {'ours':>4} {'bench':>5}  {'in a turn':>10}"]
    for name in [NAMES[c] for c in sorted(NAMES)] + ["answerable", "all"]:
        rs = groups[name]
        n = len(rs)
        ours, theirs = sum(r.f1[0] for r in rs) / n, sum(r.f1[1] for r in rs) / n
        quotes = [r for r in rs if not r.ours.quiet and not r.dated]
        contiguous = sum(r.quoted for r in quotes) / len(quotes) if quotes else float("nan")
        said = [r for r in rs if not r.bench.quiet and not is_when(r.question)]
        lines.append(
            f"  {name:<13} {n:>5}  {ours:>6.3f} {_share(rs, True):>6}  {theirs:>6.3f} {_share(rs, False):>6}"
            f"  {len(quotes):>6} {contiguous:>13.3f}  {sum(r.dated for r in rs):>5}"
            f"  {_words([r.ours for r in quotes]):>4.1f} {_words([r.bench for r in said]):>5.1f}"
            f"  {sum(r.bench_contiguous for r in said) / len(said) if said else float('nan'):>10.3f}")
    return lines


def _share(rs: list[Row], ours: bool) -> str:
    return f"{sum((r.ours if ours else r.bench).quiet for r in rs) / len(rs):.0%}"


def _words(answers: list[Answer]) -> float:
    return sum(len(a.reply.split()) for a in answers) / len(answers) if answers else float("nan")


def sign_tests(got: list[Row]) -> list[str]:
    """Per category: questions on which the readable reply scores higher / lower than the bench's."""
    lines = ["questions the readable reply scores higher / lower than the bench reader's (F1), sign test p"]
    subsets = {NAMES[c]: (lambda c0: lambda r: r.category == c0)(c) for c in sorted(NAMES)}
    subsets["answerable"] = lambda r: r.category != locomo.ADVERSARIAL
    subsets["all"] = lambda r: True
    for name, keep in subsets.items():
        pairs = [r.f1 for r in got if keep(r)]
        won, lost = sum(a > b for a, b in pairs), sum(a < b for a, b in pairs)
        p = binomtest(won, won + lost).pvalue if won + lost else 1.0
        lines.append(f"  {name:<13} {won:>4} / {lost:<4} p = {p:.3f}")
    return lines


def shown(got: list[Row], per: int, seed: int = 0) -> list[str]:
    """``per`` answered questions per category, both replies side by side."""
    lines, pick = [], random.Random(seed)
    for c in sorted(NAMES):
        answered = [r for r in got if r.category == c and not (r.ours.quiet and r.bench.quiet)]
        for r in pick.sample(answered, min(per, len(answered))):
            lines += [f"[{NAMES[c]}] {r.question}  (gold: {r.gold})", f"    readable: {r.ours.reply}",
                      f"    bench:    {r.bench.reply}", f"    from {r.ours.source or '-'}: {r.ours.sentence}"]
    return lines


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", default=str(DEFAULT_DATA))
    p.add_argument("--k", type=int, default=5)
    p.add_argument("--show", type=int, default=0, help="questions per category shown with both replies")
    a = p.parse_args()
    got, (ours, theirs) = rows(locomo.load_dataset(a.data), a.k)
    print(f"Memory.ask on LoCoMo, k={a.k}, floor 0.30, the official metric; the same turns read by both readers")
    print("\n".join(table(got)))
    print("\n".join(sign_tests(got)))
    print(f"answer_from CPU per question: readable {1000 * ours / len(got):.2f} ms, bench reader {1000 * theirs / len(got):.2f} ms")
    if a.show:
        print("\n".join(shown(got, a.show)))
    wrong = [r for r in got if not r.ours.quiet and not r.dated and not r.quoted]
    if wrong:
        raise SystemExit(f"{len(wrong)} readable replies are not a span of a cited turn, the first: {wrong[0].question!r}")


if __name__ == "__main__":
    main()
