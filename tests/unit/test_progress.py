"""Progress on long work (:mod:`graphmem.progress`): a bar on a terminal's stderr, nothing when piped or quiet.

Through click's CliRunner stderr is no terminal, so a command draws nothing; the terminal path is
forced by a stream that says it is one, or by making :func:`graphmem.progress.shown` answer yes.
"""

from __future__ import annotations

import io
import json

import pytest
from click.testing import CliRunner

from graphmem import progress
from graphmem.cli import main


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_a_bar_is_shown_only_on_a_terminal_and_not_when_quiet():
    assert progress.shown(stream=Terminal())
    assert not progress.shown(stream=io.StringIO())
    assert not progress.shown(quiet=True, stream=Terminal())


def test_the_bar_draws_its_label_and_count_on_a_terminal():
    shown = Terminal()
    with progress.bar(3, "ingesting", stream=shown, unit="turn", mininterval=0) as bar:
        for _ in range(3):
            bar.update(1)
    assert "ingesting" in shown.getvalue() and "3/3" in shown.getvalue()


@pytest.mark.parametrize("stream,quiet", [(io.StringIO(), False), (Terminal(), True)])
def test_the_bar_draws_nothing_piped_or_quiet(stream, quiet):
    with progress.bar(3, "ingesting", stream=stream, quiet=quiet) as bar:
        bar.update(3)
    assert stream.getvalue() == ""


def _turns(path, n=30):
    path.write_text("".join(json.dumps({"id": f"t{i}", "speaker": "Ann", "text": f"I walked the dog {i} times."}) + "\n"
                            for i in range(n)))
    return path


def test_ingest_piped_prints_what_it_printed_before(tmp_path):
    result = CliRunner().invoke(main, ["ingest", "--memory", str(tmp_path / "m.db"), str(_turns(tmp_path / "t.jsonl")),
                                       "--batch", "7"])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert result.output.strip() == f"30 turns added to {tmp_path / 'm.db'}; it holds 30"


@pytest.mark.parametrize("quiet", [False, True])
def test_ingest_on_a_terminal_draws_the_bar_unless_quiet(tmp_path, monkeypatch, quiet):
    monkeypatch.setattr(progress, "shown", lambda quiet=False, stream=None: not quiet)
    args = ["ingest", "--memory", str(tmp_path / "m.db"), str(_turns(tmp_path / "t.jsonl")), "--batch", "7"]
    result = CliRunner().invoke(main, args + (["--quiet"] if quiet else []))
    assert result.exit_code == 0, result.output
    assert ("ingesting" in result.stderr and "/30" in result.stderr) is not quiet
    assert result.stdout.strip() == f"30 turns added to {tmp_path / 'm.db'}; it holds 30"


def test_the_loads_bars_go_through_the_same_helper(monkeypatch):
    """graphmem load draws its bars (reading claims, writing) through graphmem.store.neo4j.checks.bar."""
    from graphmem.store.neo4j.checks import bar

    monkeypatch.setattr(progress, "shown", lambda quiet=False, stream=None: not quiet)
    with bar(5, True, "writing") as drawn:
        assert not drawn.disable  # (tqdm marks every bar disabled once closed)
        drawn.update(5)
    with bar(5, False, "writing") as hidden:  # --quiet
        assert hidden.disable
