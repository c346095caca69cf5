"""The bench's tables keep every column name apart from the one before it, however long the arm
names run (``graph+edge``, ``path+set+model``): graphmem/bench/locomo/report.py."""

from __future__ import annotations

import re

import pytest

from graphmem.bench.locomo.report import render_reach, render_table
from graphmem.bench.locomo.run import ROWS, Cell

ARMS = ["graph", "graph+edge", "oracle", "vector"]
LONG = ["graph", "graph+edge+set+model+x", "g", "scoped+set+model"]


def _table(arms: list[str]) -> dict[str, dict[str, Cell]]:
    return {row: {a: Cell(100, 0.123, 0.456, 0.2) for a in arms} for row, _ in ROWS}


def _names_apart(header: str, arms: list[str]) -> None:
    assert header.split() == arms  # each name a word of its own: none runs into the next
    assert all(re.search(r"\s{2}" + re.escape(a) + r"(\s|$)", header) for a in arms)


@pytest.mark.parametrize("arms", [ARMS, LONG])
def test_the_reach_header_keeps_names_apart_and_figures_under_them(arms):
    lines = render_reach(arms, _table(arms)).splitlines()
    _names_apart(lines[0].removeprefix("category").replace(" n ", " ", 1), arms)
    for line in lines[1:]:
        assert len(line) == len(lines[0])  # every figure ends where its name ends
        assert line.split()[-len(arms):] == ["0.456"] * len(arms)


def test_the_reach_table_for_the_default_arms_reads_as_printed():
    assert render_reach(ARMS, _table(ARMS)).splitlines()[0] == (
        "category         n     graph  graph+edge    oracle    vector")


@pytest.mark.parametrize("arms", [ARMS, LONG])
def test_the_main_table_keeps_names_apart_and_cells_under_them(arms):
    lines = render_table(arms, _table(arms)).splitlines()
    _names_apart(lines[0], arms)
    assert len({len(line) for line in lines[1:]}) == 1  # header and rows: the same columns
    for line in lines[2:]:
        assert line[20:].split() == ["0.123", "0.456", "20%"] * len(arms)


def test_the_main_table_for_the_default_arms_is_unchanged():
    head = render_table(ARMS, _table(ARMS)).splitlines()[:2]
    assert head == [" " * 14 + "".join(a.rjust(22) for a in ARMS),
                    "category           n" + "      F1 recall  quiet" * 4]
