"""A name no record may hold (a user over 200 characters, an id or conversation over 1,000) is refused by
every verb in the same words as by ``ingest``, not answered as a partition that happens to be empty."""

import pytest

from graphmem import Memory
from graphmem.errors import DataError

LONG_USER = "u" * 201
LONG_KEY = "c" * 1001


def _verbs(mem: Memory, **named: object) -> dict:
    return {"search": lambda: mem.search("hi", **named), "ask": lambda: mem.ask("hi", **named),
            "search_conversations": lambda: mem.search_conversations("hi", **named),
            "facts": lambda: mem.facts("Ann", **named), "turns": lambda: list(mem.turns(**named)),
            "forget": lambda: mem.forget(**named)}


@pytest.mark.parametrize(("named", "line"), [
    ({"user": LONG_USER}, "user is 201 characters long, more than 200 (every store keys by it)"),
])
def test_a_user_longer_than_a_record_may_hold_is_refused_by_every_verb_alike(named, line):
    mem = Memory()
    mem.ingest([{"id": "a", "speaker": "Ann", "text": "hi"}])
    for verb, call in _verbs(mem, **named).items():
        with pytest.raises(DataError) as refused:
            call()
        assert str(refused.value) == line, verb
    with pytest.raises(DataError, match=r"^record 0 \(id 'b'\): 'user' is 201 characters long, more than 200"):
        mem.ingest([{"id": "b", "speaker": "Ann", "text": "hi", "user": LONG_USER}])


def test_a_conversation_or_id_longer_than_a_record_may_hold_is_refused():
    mem = Memory()
    with pytest.raises(DataError, match="^conversation is 1001 characters long, more than 1000"):
        mem.search("hi", conversation=LONG_KEY)
    with pytest.raises(DataError, match="^an id is 1001 characters long, more than 1000"):
        mem.forget(ids=[LONG_KEY])
    assert mem.search("hi", user="u" * 200) == [], "200 characters is a user's limit, not past it"


@pytest.mark.parametrize("given", [None, 5, "abc", {"id": "a", "speaker": "Ann", "text": "hi"}])
def test_ingest_of_no_list_of_records_is_one_data_error(given):
    with pytest.raises(DataError, match=r"^records must be a list of records \(dicts with id, speaker and text\)"):
        Memory().ingest(given)


def test_a_bad_as_of_is_named_as_of_and_a_bad_asked_on_asked_on():
    mem = Memory()
    with pytest.raises(DataError, match=r"^as_of: cannot read the date 'soon'$"):
        mem.facts("Ann", as_of="soon")
    with pytest.raises(DataError, match=r"^as_of must be a datetime, a date or a date string, not int$"):
        mem.facts("Ann", as_of=3)
    with pytest.raises(DataError, match=r"^asked_on: cannot read the date 'soon'$"):
        mem.search("dog", asked_on="soon")


@pytest.mark.parametrize(("command", "option"), [("search", "--asked-on"), ("ask", "--asked-on"), ("facts", "--as-of")])
def test_the_command_lines_date_errors_name_the_option(tmp_path, command, option):
    from click.testing import CliRunner

    from graphmem.cli import main

    turns = tmp_path / "t.jsonl"
    turns.write_text('{"id": "a", "speaker": "Ann", "text": "hi"}\n{"id": "b", "speaker": "Bob", "text": "yo"}\n')
    result = CliRunner().invoke(main, [command, "Ann", "--data", str(turns), option, "soon"])
    assert result.exit_code == 1 and result.output == f"Error: {option}: cannot read the date 'soon'\n"


@pytest.mark.parametrize(("given", "kept"), [
    ("2023-05-08T10:00:00.123456", (2023, 5, 8, 10, 0, 0, 123456)),
    ("2023-05-08 10:00:00.5", (2023, 5, 8, 10, 0, 0, 500000)),
    ("2023-05-08T10:00:00.123", (2023, 5, 8, 10, 0, 0, 123000)),
    ("2023-05-08T10:00:00.123456789", (2023, 5, 8, 10, 0, 0, 123456)),
])
def test_an_iso_date_with_a_fraction_of_a_second_is_read(given, kept):
    from datetime import datetime

    mem = Memory()
    mem.ingest([{"id": "a", "speaker": "Ann", "text": "hi", "date": given}])
    assert [t.date for t in mem.turns()] == [datetime(*kept)]
    with pytest.raises(DataError, match=r"cannot read the date '2023-13-08T10:00:00.1'"):
        mem.ingest([{"id": "b", "speaker": "Ann", "text": "hi", "date": "2023-13-08T10:00:00.1"}])
