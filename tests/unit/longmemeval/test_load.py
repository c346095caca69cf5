"""The loader on a tiny hand-made release file: dates, repeated sessions, ``_abs``, bad input."""

from __future__ import annotations

import json
from datetime import datetime

import pytest

from graphmem.data.records import parse_date
from graphmem.errors import DataError
from graphmem.bench.longmemeval.load import load, locate
from graphmem.memory.api import Memory
from tests.unit.longmemeval.conftest import tiny_rows


def test_release_dates_are_read_and_their_weekday_checked():
    assert parse_date("2023/05/20 (Sat) 02:21", "x") == datetime(2023, 5, 20, 2, 21)
    assert parse_date("2023/05/20 (Sat)", "x") == datetime(2023, 5, 20)
    with pytest.raises(DataError, match="says Sun, but that day is a Sat"):
        parse_date("2023/05/20 (Sun) 02:21", "here")
    with pytest.raises(DataError, match="here: cannot read the date"):
        parse_date("2023/02/30 (Mon) 02:21", "here")


def test_questions_sessions_and_repeats(tiny):
    q1, q2 = load(tiny)
    assert (q1.id, q1.type, q1.answer, q1.date) == ("q1", "single-session-user", "Billy", datetime(2023, 5, 30, 10))
    assert not q1.abstention and q2.abstention
    # f1 repeated with the same turns: once, at its first date; f2 repeated with other turns: kept apart by date
    assert [s.key for s in q1.sessions] == ["f1", "e1", "f2", "f2@2023/05/24 (Wed) 09:00"]
    assert [s.id for s in q1.sessions] == ["f1", "e1", "f2", "f2"]
    assert q1.repeated == 1
    assert q1.sessions[0].date == datetime(2023, 5, 20, 2, 21)
    assert [t.id for t in q1.sessions[1].turns] == ["e1/0", "e1/1"]
    assert [t.has_answer for t in q1.sessions[2].turns] == [True, True]
    assert q1.evidence_sessions == {"e1"}


def test_records_go_into_a_memory_whole(tiny):
    q1 = load(tiny)[0]
    mem = Memory()
    assert mem.ingest(q1.records()) == 8
    assert set(mem.search(q1.question, k=2)) == {"e1/0", "e1/1"}  # the evidence and the reply echoing it
    users = q1.records(roles=("user",))
    assert [r["id"] for r in users] == ["f1/0", "e1/0", "f2/0", "f2@2023/05/24 (Wed) 09:00/0"]
    assert {r["turn"] for r in users} == {0}


def test_limit_and_plain_json(tmp_path):
    path = tmp_path / "plain.json"
    path.write_text(json.dumps(tiny_rows()))
    assert [q.id for q in load(path, limit=1)] == ["q1"]


def _bad(tmp_path, rows):
    path = tmp_path / "bad.json"
    path.write_text(rows if isinstance(rows, str) else json.dumps(rows))
    with pytest.raises(DataError) as err:
        load(path)
    assert str(path) in str(err.value) and "\n" not in str(err.value)
    return str(err.value)


def test_malformed_input_names_the_file_and_the_place(tmp_path):
    assert "not JSON (line 1, column 3" in _bad(tmp_path, "[{")
    assert "expected a JSON list" in _bad(tmp_path, {"a": 1})
    rows = tiny_rows()
    del rows[1]["answer"]
    assert "question 1 (id 'q2_abs'): missing 'answer'" in _bad(tmp_path, rows)
    rows = tiny_rows()
    rows[0]["haystack_sessions"][3][1] = {"role": "assistant"}
    assert "question 0 (id 'q1'): haystack_sessions[3] (session 'f2')[1]: missing 'content'" in _bad(tmp_path, rows)
    rows = tiny_rows()
    rows[0]["haystack_dates"][1] = "yesterday"
    assert "question 0 (id 'q1'): haystack_dates[1]: cannot read the date 'yesterday'" in _bad(tmp_path, rows)
    rows = tiny_rows()
    rows[0]["haystack_dates"].pop()
    assert "differ in length (5, 4, 5)" in _bad(tmp_path, rows)
    rows = tiny_rows()
    rows[1]["question_id"] = "q1"
    assert "question 1: question_id 'q1' repeats" in _bad(tmp_path, rows)


def test_cut_gzip_is_one_error(tmp_path, tiny):
    cut = tmp_path / "cut.json.gz"
    cut.write_bytes(tiny.read_bytes()[:40])
    with pytest.raises(DataError, match="cut.json.gz"):
        load(cut)


def test_where_the_file_comes_from(tmp_path, monkeypatch, tiny, no_shared):
    monkeypatch.delenv("GRAPHMEM_LONGMEMEVAL", raising=False)
    monkeypatch.setenv("GRAPHMEM_SHARED", str(tmp_path / "nowhere"))
    with pytest.raises(DataError, match="longmemeval_s_cleaned.json from the xiaowu0162/longmemeval-cleaned"):
        locate(None)
    monkeypatch.setenv("GRAPHMEM_LONGMEMEVAL", str(tiny))
    assert locate(None) == tiny
    (tmp_path / "longmemeval").mkdir()
    oracle = tmp_path / "longmemeval" / "longmemeval_oracle_dev.json.gz"
    oracle.write_bytes(tiny.read_bytes())
    monkeypatch.setenv("GRAPHMEM_SHARED", str(tmp_path))
    assert locate(None, "oracle") == oracle
    with pytest.raises(DataError, match="missing.json: no such file"):
        locate(tmp_path / "missing.json")
