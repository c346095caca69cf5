"""A record's keys and its text: a misspelt key is refused with the key it was likely meant to be, an empty
or invisible text or speaker is refused; the API, ``graphmem ingest`` and MCP ``remember`` alike."""

import json

import pytest
from click.testing import CliRunner

from graphmem import Memory
from graphmem.cli import main
from graphmem.data.records import KEYS, unknown_key
from graphmem.errors import DataError


@pytest.mark.parametrize(("key", "line"), [
    ("usr", "unknown key 'usr' (did you mean 'user'?)"),
    ("converstion", "unknown key 'converstion' (did you mean 'conversation'?)"),
    ("speakr", "unknown key 'speakr' (did you mean 'speaker'?)"),
    ("dates", "unknown key 'dates' (did you mean 'date'?)"),
    ("colour", "unknown key 'colour'"),
])
def test_an_unknown_key_is_named_with_the_known_key_it_is_near(key, line):
    assert unknown_key(["id", "speaker", "text", key]) == line
    with pytest.raises(DataError) as refused:
        Memory().ingest([{"id": "a", "speaker": "Ann", "text": "hi", key: "x"}])
    assert str(refused.value) == f"record 0 (id 'a'): {line}; a record takes {', '.join(KEYS[:-1])}"


def test_metadata_is_a_known_key():
    assert "metadata" in KEYS and unknown_key(["id", "speaker", "text", "metadata", "user", "turn", "date"]) is None


@pytest.mark.parametrize(("field", "value", "said"), [
    ("text", "", "'text' must be a non-empty string"),
    ("text", "   ", "'text' must be a non-empty string"),
    ("text", "\u200b", "'text' shows no character (only spaces or invisible ones)"),
    ("speaker", "\u200b", "'speaker' shows no character (only spaces or invisible ones)"),
    ("speaker", "\u2060\u00a0\ufeff", "'speaker' shows no character (only spaces or invisible ones)"),
])
def test_an_empty_or_invisible_text_or_speaker_is_refused(field, value, said):
    with pytest.raises(DataError, match=r"^record 0 \(id 'a'\): " + said.replace("(", r"\(").replace(")", r"\)")):
        Memory().ingest([{"id": "a", "speaker": "Ann", "text": "hi", field: value}])


def test_visible_text_in_any_script_is_kept():
    assert Memory().ingest([{"id": "a", "speaker": "\u05d3\u05e0\u05d4", "text": "\u4f60\u597d"},
                            {"id": "b", "speaker": "Ann", "text": "e\u0301"}]) == 2


def test_graphmem_ingest_refuses_a_misspelt_key_naming_its_line_and_adds_nothing(tmp_path):
    turns = tmp_path / "turns.jsonl"
    turns.write_text(json.dumps({"id": "a", "speaker": "Ann", "text": "hi"}) + "\n"
                     + json.dumps({"id": "b", "speaker": "Bob", "text": "my secret", "usr": "bob"}) + "\n")
    result = CliRunner().invoke(main, ["ingest", "--memory", str(tmp_path / "m.db"), str(turns)])
    assert result.exit_code == 1
    assert result.output == (f"Error: {turns}: line 2: unknown key 'usr' (did you mean 'user'?); "
                             f"a record takes {', '.join(KEYS[:-1])}\n")
    assert not (tmp_path / "m.db").exists() or len(Memory(path=tmp_path / "m.db", read_only=True)) == 0
