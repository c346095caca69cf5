"""Pictures of what the tables say: the trade between answering and declining, and reach.

Drawn with matplotlib's Agg backend, so no display is needed.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphmem.errors import GraphmemError

if TYPE_CHECKING:  # for the hints only: the cli imports this module for every command
    from graphmem.bench.locomo.run import Cell
    from graphmem.bench.locomo.sweep import Sweep


def _pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend, imported only when a plot is drawn (it is slow to import)."""
    import matplotlib  # lazy: slow to import, and only a plot needs it

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # after the backend is chosen

    return plt


def trade(path: Path, setting: str, arms: Sequence[str], sweep: Sweep) -> None:
    """Per arm, answerable and adversarial F1 against how often it is quiet, over a sweep.

    An arm that falls silent on the right questions keeps its answerable line high while
    its adversarial line climbs; one that cannot tell them apart loses both together.
    """
    plt = _pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5), sharex=True)
    for arm in arms:
        quiet = [100 * sweep[v][arm].quiet for v in sweep]
        line = left.plot(quiet, [sweep[v][arm].answerable for v in sweep], marker="o", label=arm)[0]
        right.plot(quiet, [sweep[v][arm].adversarial for v in sweep], marker="o", color=line.get_color(), label=arm)
    left.set_title("answerable questions")
    right.set_title("adversarial questions")
    for ax in (left, right):
        ax.set_xlabel("quiet (% of all questions)")
        ax.set_ylabel("F1 (official metric)")
        ax.grid(alpha=0.3)
    right.legend(loc="lower right")
    fig.suptitle(f"LoCoMo: answering against declining, swept over {setting}")
    _save(fig, plt, path)


def reach(path: Path, arms: Sequence[str], table: dict[str, dict[str, Cell]]) -> None:
    """Bars of evidence recall per category and arm, for a run whose k exceeds every index."""
    plt = _pyplot()
    rows = [r for r in table if r not in ("answerable", "overall")]
    fig, ax = plt.subplots(figsize=(10, 4.5))
    width = 0.8 / max(len(arms), 1)
    for i, arm in enumerate(arms):
        xs = [j + i * width for j in range(len(rows))]
        ax.bar(xs, [table[r][arm].recall for r in rows], width=width, label=arm)
    ax.set_xticks([j + width * (len(arms) - 1) / 2 for j in range(len(rows))], rows)
    ax.set_ylabel("share of evidence reachable")
    ax.set_ylim(0, 1.05)
    ax.legend()
    ax.set_title("What each index can reach at all")
    _save(fig, plt, path)


def _save(fig: Any, plt: Any, path: Path) -> None:
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        fig.tight_layout()
        fig.savefig(path, dpi=110)
    except OSError as exc:
        raise GraphmemError(f"{path}: cannot write the plot ({exc.strerror})") from None
    finally:
        plt.close(fig)
