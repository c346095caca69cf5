"""Which conversations a load writes (graphmem/store/neo4j/checks.py ``select``): a list that names none is
refused in one line, before any server is asked, rather than loading nothing and exiting 0."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.data.dialogue import dialogue, turn_file
from graphmem.errors import DataError
from graphmem.store.neo4j.checks import select

TURNS = "\n".join([
    '{"id": "a1", "speaker": "Ann", "text": "hi", "conversation": "c1"}',
    '{"id": "a2", "speaker": "Bob", "text": "hello", "conversation": "c1"}',
    '{"id": "b1", "speaker": "Cleo", "text": "hey", "conversation": "c2"}',
    '{"id": "b2", "speaker": "Dan", "text": "yo", "conversation": "c2"}',
]) + "\n"


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "turns.jsonl"
    path.write_text(TURNS)
    return path


@pytest.fixture
def dataset(data):
    return dialogue(data, turn_file(data))


def test_none_selects_all_and_a_list_selects_in_dataset_order(dataset):
    assert [c.id for c in select(dataset, None)] == ["c1", "c2"]
    assert [c.id for c in select(dataset, " c2 ,c1,,")] == ["c1", "c2"]
    assert [c.id for c in select(dataset, "c2")] == ["c2"]


@pytest.mark.parametrize("spec", ["", ",,,", " , ", " "])
def test_a_list_that_names_no_conversation_is_refused(dataset, spec):
    with pytest.raises(DataError, match=r"names no conversation: give a comma list of ids \(from c1, c2\)"):
        select(dataset, spec)


def test_an_unknown_conversation_is_refused(dataset):
    with pytest.raises(DataError, match="^unknown conversation c3: choose from c1, c2$"):
        select(dataset, "c1,c3")


def test_the_load_command_says_it_in_one_line_before_connecting(data):
    result = CliRunner().invoke(main, ["load", "--data", str(data), "--conversations", ",,,",
                                       "--uri", "bolt://127.0.0.1:9"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    [line] = result.output.strip().splitlines()
    assert line == "Error: --conversations ',,,' names no conversation: give a comma list of ids (from c1, c2), " \
                   "or leave it out to load all"
