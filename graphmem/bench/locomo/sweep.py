"""Sweeps: one setting varied over a range, every arm's answerable, adversarial and overall F1 and quiet.

A single threshold can always be argued with, so the setting that trades answering for
declining is swept instead, and arms are compared at matched silence: each at whichever
floor makes it as quiet as the other. Retrieval is reused wherever the setting does not
change it (everything but k), and the floor does not even change the replies.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from graphmem.bench.locomo import run as b
from graphmem.errors import GraphmemError
from graphmem.answer.reader import ReaderSettings
from graphmem.progress import bar as progress_bar

POINTS: dict[str, list[float]] = {
    "floor": [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8],
    "k": [1, 2, 3, 5, 10, 20],
    "span": [1, 2, 3, 4, 6, 8],
    "band": [0.5, 0.7, 0.8, 0.9, 1.0],
    "parts": [1, 2, 3, 4],
}


@dataclass(frozen=True)
class Point:
    """One arm at one value of the swept setting."""

    answerable: float
    adversarial: float
    overall: float
    quiet: float


Sweep = dict[float, dict[str, Point]]
"""Value -> arm -> point."""


def run(prep: b.Prepared, setting: str, k: int, floor: float, settings: ReaderSettings, confidence: str = "turn",
        quiet: bool = True) -> Sweep:
    """Every arm at every point of one setting, reusing retrieval where it can; unless ``quiet``, a bar
    counts the points on a terminal's stderr (:mod:`graphmem.progress`)."""
    if setting not in POINTS:
        raise GraphmemError(f"cannot sweep {setting!r}: choose from {', '.join(POINTS)}")
    out: Sweep = {}
    found = None if setting == "k" else b.retrieve(prep, k)
    answers = b.answer(prep, found, settings, confidence) if setting == "floor" else None
    with progress_bar(len(POINTS[setting]), f"sweep {setting}", quiet=quiet, unit="point") as shown:
        for value in POINTS[setting]:
            out[value] = _point(prep, setting, value, k, floor, settings, confidence, found, answers)
            shown.update(1)
    return out


def _point(prep: b.Prepared, setting: str, value: float, k: int, floor: float, settings: ReaderSettings,
           confidence: str, found: Any, answers: Any) -> dict[str, Point]:
    """Every arm at one point of the sweep."""
    if setting == "k":
        here = b.answer(prep, b.retrieve(prep, int(value)), settings, confidence)
    elif setting == "floor":
        here = answers
    else:
        cast = int(value) if setting in ("span", "parts") else float(value)
        here = b.answer(prep, found, replace(settings, **{setting: cast}), confidence)
    scored = b.score(prep, here, value if setting == "floor" else floor)
    table = scored.table(prep.arms)
    return {
        a: Point(table["answerable"][a].f1, table["adversarial"][a].f1, table["overall"][a].f1, table["overall"][a].quiet)
        for a in prep.arms
    }


def render(setting: str, arms: Sequence[str], sweep: Sweep) -> str:
    """The specification's sweep table: per arm 1-4 (answerable), adv, all, quiet."""
    lines = [" " * 8 + "".join(a.rjust(28) for a in arms)]
    lines.append(setting.rjust(8) + "".join("     1-4    adv    all quiet" for _ in arms))
    for value, row in sweep.items():
        line = f"{value:g}".rjust(8)
        for a in arms:
            p = row[a]
            line += f"{p.answerable:8.3f}{p.adversarial:7.3f}{p.overall:7.3f}{round(100 * p.quiet):5d}%"
        lines.append(line)
    return "\n".join(lines)


def matched(sweep: Sweep, a: str, other: str, within: float = 0.04) -> list[tuple[float, float, Point, Point]]:
    """For each floor of ``a``, the floor of ``other`` with the nearest quiet rate (if within ``within``)."""
    out = []
    for fa, row in sweep.items():
        pa = row[a]
        fb, pb = min(((fb, r[other]) for fb, r in sweep.items()), key=lambda x: (abs(x[1].quiet - pa.quiet), x[0]))
        if abs(pb.quiet - pa.quiet) <= within and not (out and out[-1][2] == pa and out[-1][3] == pb):
            out.append((fa, fb, pa, pb))
    return out


def render_matched(sweep: Sweep, arms: Sequence[str]) -> str:
    """Each pair of arms at matched silence (the first arm against each other arm)."""
    if len(arms) < 2:
        return ""
    blocks = []
    a = arms[0]
    for other in arms[1:]:
        rows = matched(sweep, a, other)
        lines = [f"{'silence':>8}{a + ' 1-4':>16}{a + ' adv':>16}{other + ' 1-4':>16}{other + ' adv':>16}   floors"]
        for fa, fb, pa, pb in rows:
            quiet = (pa.quiet + pb.quiet) / 2
            lines.append(f"{'~' + str(round(100 * quiet)) + '%':>8}{pa.answerable:16.3f}{pa.adversarial:16.3f}"
                         f"{pb.answerable:16.3f}{pb.adversarial:16.3f}   {fa:g} / {fb:g}")
        if not rows:
            lines.append("   (no floors at matched silence)")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)
