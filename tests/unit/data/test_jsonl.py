"""JSON Lines: a line ends at "\\n" only, and every damaged or hostile file is one DataError line
naming the file and the line, never a traceback (graphmem/data/jsonl.py, graphmem/data/jsontext.py)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.data import jsontext
from graphmem.data.jsonl import rows
from graphmem.data.records import read_jsonl
from graphmem.errors import DataError

TURN = {"id": "d1", "speaker": "Ann", "text": "hi"}


def _file(tmp_path, content: bytes | str, name: str = "t.jsonl"):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def _refused(path) -> str:
    with pytest.raises(DataError) as info:
        rows(path)
    message = str(info.value)
    assert message.startswith(str(path)) and "\n" not in message
    return message


@pytest.mark.parametrize("sep", ["\u2028", "\u2029", "\u0085", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e"])
def test_a_unicode_line_break_inside_a_string_is_part_of_the_line(tmp_path, sep):
    line = '{"id": "d1", "speaker": "Ann", "text": "one' + sep + 'two"}'
    if sep < " ":  # a raw control character is not JSON: named, not split
        assert "line 1: not JSON" in _refused(_file(tmp_path, line + "\n"))
        return
    [turn] = read_jsonl(_file(tmp_path, line + "\n"))
    assert turn.text == f"one{sep}two"


def test_crlf_line_ends_and_a_byte_order_mark_are_read(tmp_path):
    body = "\ufeff" + json.dumps(TURN) + "\r\n" + json.dumps({**TURN, "id": "d2"}) + "\r\n"
    assert [n for n, _ in rows(_file(tmp_path, body))] == [1, 2]


def test_a_lone_carriage_return_does_not_end_a_line(tmp_path):
    body = json.dumps(TURN) + "\r" + json.dumps({**TURN, "id": "d2"}) + "\n"
    assert "line 1: not JSON" in _refused(_file(tmp_path, body))


@pytest.mark.parametrize(("content", "said"), [
    (b"", "no rows (an empty file"),
    (b"\n  \n\t\r\n", "no rows (only blank lines"),
    (json.dumps(TURN).encode() + b"\n[1, 2]\n", "line 2: expected a JSON object, got array"),
    (b"42\n", "line 1: expected a JSON object, got number"),
    (b'"text"\n', "line 1: expected a JSON object, got string"),
    (b"null\n", "line 1: expected a JSON object, got null"),
    (json.dumps(TURN).encode() + b'\n{"id": "caf\xe9"}\n', "line 2: not UTF-8 text (byte 12 of the line)"),
    (b'{"id": "d1"} {"id": "d2"}\n', "line 1: not JSON (column 14: Extra data)"),
    (json.dumps(TURN).encode() + b"\n\xef\xbb\xbf" + json.dumps(TURN).encode(), "line 2: not JSON"),
    (b'{"turn": NaN}\n', "line 1: NaN is not JSON"),
    (b'{"turn": -Infinity}\n', "line 1: -Infinity is not JSON"),
    (b'{"turn": 1e999}\n', "line 1: the number 1e999 is beyond a float's range"),
])
def test_every_damaged_file_is_one_line_naming_the_place(tmp_path, content, said):
    assert said in _refused(_file(tmp_path, content))


@pytest.mark.parametrize("number", ["1" * 5000, "-" + "9" * 5000, "1" * 5000 + ".5", "0." + "1" * 5000])
def test_a_number_of_thousands_of_digits_is_refused_by_its_line(tmp_path, number):
    message = _refused(_file(tmp_path, json.dumps(TURN) + '\n{"id": "x", "turn": ' + number + "}\n"))
    assert f"line 2: a number of {len(number)} characters, more than the {jsontext.MAX_DIGITS}" in message


@pytest.mark.parametrize(("opener", "closer"), [("[", "]"), ('{"a":', "}")])
def test_nesting_a_hundred_thousand_deep_is_refused_by_its_line(tmp_path, opener, closer):
    deep = opener * 100_000 + "1" + closer * 100_000
    message = _refused(_file(tmp_path, json.dumps(TURN) + "\n" + '{"id": "x", "deep": ' + deep + "}\n"))
    assert f"line 2: nested 100001 deep, more than the {jsontext.MAX_DEPTH}" in message


def test_brackets_and_escapes_inside_strings_do_not_count_as_nesting():
    text = json.dumps({"text": "[" * 500 + '\\"{[' + "}" * 300, "list": [[["x\\"]]]})
    assert jsontext.depth(text) == 4
    assert jsontext.parse(text, "here")["list"] == [[["x\\"]]]


def test_a_huge_line_is_read(tmp_path):
    text = "word " * 2_000_000  # 10 MB
    [(n, row)] = rows(_file(tmp_path, json.dumps({**TURN, "text": text}) + "\n"))
    assert n == 1 and len(row["text"]) == 10_000_000


def test_whole_json_files_keep_the_same_limits(tmp_path):
    from graphmem.data.locomo import load_file
    from graphmem.bench.longmemeval.load import load

    deep = _file(tmp_path, "[" * 100_000 + "]" * 100_000, "deep.json")
    with pytest.raises(DataError, match=r"deep\.json: nested 100000 deep"):
        load_file(deep)
    with pytest.raises(DataError, match=r"deep\.json: nested 100000 deep"):
        load(deep)
    long = _file(tmp_path, "[" + "7" * 5000 + "]", "long.json")
    with pytest.raises(DataError, match=r"long\.json: a number of 5000 characters"):
        load_file(long)


def test_the_command_line_says_a_hostile_line_in_one_line(tmp_path):
    path = _file(tmp_path, json.dumps(TURN) + '\n{"id": "x", "turn": ' + "1" * 5000 + "}\n")
    result = CliRunner().invoke(main, ["search", "hi", "--data", str(path)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    [line] = result.output.strip().splitlines()
    assert line.startswith("Error: ") and f"{path}: line 2: a number of 5000" in line
