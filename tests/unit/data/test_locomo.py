"""graphmem.data.locomo: the real file loads with the documented counts and repairs; every
kind of bad input is one DataError line naming the file and the place."""

from __future__ import annotations

import copy
import json
from collections import Counter
from datetime import datetime
from pathlib import Path

import pytest

from graphmem.data import evidence, fetch, locomo
from graphmem.errors import DataError

# --------------------------------------------------------------------------- real file


def test_counts(dataset):
    convs = dataset.conversations
    assert len(convs) == 10
    assert sum(len(c.sessions) for c in convs) == 272
    assert sum(len(c.turns) for c in convs) == 5882
    assert dataset.questions == 1986
    cats = Counter(q.category for c in convs for q in c.questions)
    assert [cats[k] for k in (4, 1, 2, 3, 5)] == [841, 282, 321, 96, 446]
    assert dataset.sha256 == fetch.LOCOMO_SHA256


def test_sessions_in_numeric_order(dataset):
    for c in dataset.conversations:
        idx = [s.index for s in c.sessions]
        assert idx == sorted(idx) and idx[0] == 1
        for s in c.sessions:
            assert all(t.session == s.index and t.date == s.date for t in s.turns)
            assert all(t.id.startswith(f"D{s.index}:") for t in s.turns)
    conv26 = dataset.conversations[0]
    assert [s.index for s in conv26.sessions][8:11] == [9, 10, 11]  # not 1, 10, 11, ..., 2


def test_dates_parsed(dataset):
    s1 = dataset.conversations[0].sessions[0]
    assert s1.date_text == "1:56 pm on 8 May, 2023"
    assert s1.date == datetime(2023, 5, 8, 13, 56)


def test_turns(dataset):
    c = dataset.conversations[0]
    assert c.id == "conv-26"
    assert c.speakers == ("Caroline", "Melanie")
    t = c.turn_by_id["D1:1"]
    assert (t.id, t.speaker, t.session) == ("D1:1", "Caroline", 1)
    assert t.text.startswith("Hey Mel!")
    assert t.caption is None
    captions = [t for c in dataset.conversations for t in c.turns if t.caption]
    assert len(captions) == 1226
    assert all(isinstance(t.caption, str) and t.caption for t in captions)


def test_answers_are_strings(dataset):
    qs = [q for c in dataset.conversations for q in c.questions]
    assert all(isinstance(q.answer, str) for q in qs)
    conv26 = dataset.conversations[0]
    assert conv26.questions[1].answer == "2022"  # an int in the file
    assert conv26.questions[40].answer == "2"
    adversarial_without_answer = [q for q in qs if q.category == locomo.ADVERSARIAL and q.answer == ""]
    assert len(adversarial_without_answer) == 444
    assert all(q.adversarial_answer for q in adversarial_without_answer)
    assert all(q.answer for q in qs if q.answerable)


def _by_sid(dataset):
    return {c.id: c for c in dataset.conversations}


def test_evidence_repairs(dataset):
    convs = _by_sid(dataset)
    report = dataset.report
    assert [(r.sample_id, r.question, r.raw) for r in report.repaired] == [
        ("conv-26", 37, "D8:6; D9:17"),
        ("conv-43", 18, "D:11:26"),
        ("conv-49", 31, "D9:1 D4:4 D4:6"),
        ("conv-49", 38, "D22:1 D22:2 D9:10 D9:11"),
        ("conv-49", 46, "D21:18 D21:22 D11:15 D11:19"),
    ]
    assert convs["conv-26"].questions[37].evidence == ("D8:6", "D9:17")
    assert "D11:26" in convs["conv-43"].questions[18].evidence
    assert convs["conv-49"].questions[38].evidence == ("D22:1", "D22:2", "D9:10", "D9:11")
    assert sum(len(r.result.split()) for r in report.repaired) == 14


def test_evidence_drops_are_reported(dataset):
    convs = _by_sid(dataset)
    report = dataset.report
    assert [(d.sample_id, d.raw, d.result) for d in report.dropped] == [
        ("conv-42", "D10:19", "names no turn"),
        ("conv-42", "D", "malformed"),
        ("conv-47", "D4:36", "names no turn"),
        ("conv-50", "D30:05", "names no turn"),
    ]
    assert "D10:19" not in convs["conv-42"].questions[58].evidence
    assert convs["conv-42"].questions[88].evidence == ("D1:18", "D1:20")
    assert convs["conv-50"].questions[69].evidence == ()
    summary = report.summary()
    assert summary.startswith("evidence: 5 ids repaired, 4 dropped (")
    for raw in ("'D10:19' in conv-42", "'D' in conv-42", "'D4:36' in conv-47", "'D30:05' in conv-50"):
        assert raw in summary
    assert "\n" not in summary
    assert len(report.lines()) == 9


def test_every_kept_evidence_id_names_a_turn(dataset):
    for c in dataset.conversations:
        for q in c.questions:
            assert len(set(q.evidence)) == len(q.evidence)
            assert all(e in c.turn_by_id for e in q.evidence)


# --------------------------------------------------------------------------- parsing units


@pytest.mark.parametrize(
    "text, expected",
    [
        ("1:56 pm on 8 May, 2023", datetime(2023, 5, 8, 13, 56)),
        ("12:09 am on 13 September, 2023", datetime(2023, 9, 13, 0, 9)),
        ("12:30 pm on 1 Jan, 2024", datetime(2024, 1, 1, 12, 30)),
        ("  9:00  AM on 30 june 2022 ", datetime(2022, 6, 30, 9, 0)),
    ],
)
def test_parse_session_date(text, expected):
    assert locomo.parse_session_date(text) == expected


@pytest.mark.parametrize("text", ["yesterday", "13:00 pm on 8 May, 2023", "1:00 pm on 31 June, 2023", "1:00 pm on 8 Mai, 2023", ""])
def test_parse_session_date_rejects(text):
    with pytest.raises(ValueError):
        locomo.parse_session_date(text)


def test_normalise_evidence_counts_one_repair_per_entry():
    by_id = {f"D1:{i}": object() for i in range(1, 5)}
    report = evidence.EvidenceReport()
    out = evidence.normalise_evidence(
        "s", 0, ["D1:1", "D1:2; D1:3", "D:1:4", "D1:1", " D1:2", "", "D1:9", "D1:3;D7"], by_id, report
    )
    assert out == ("D1:1", "D1:2", "D1:3", "D1:4")
    assert [r.raw for r in report.repaired] == ["D1:2; D1:3", "D:1:4", " D1:2", "D1:3;D7"]
    assert [(d.raw, d.result) for d in report.dropped] == [
        ("", "malformed"),
        ("D1:9", "names no turn"),
        ("D7", "malformed"),
    ]


# --------------------------------------------------------------------------- bad input


def _sample(sid="conv-1"):
    return {
        "sample_id": sid,
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bob",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": "Hi Bob."},
                {"speaker": "Bob", "dia_id": "D1:2", "text": "Look.", "blip_caption": "a photo of a cat"},
            ],
            "session_2_date_time": "9:00 am on 9 May, 2023",
            "session_2": [{"speaker": "Ann", "dia_id": "D2:1", "text": "Nice cat."}],
        },
        "qa": [
            {"question": "What did Bob show?", "answer": "a cat", "evidence": ["D1:2"], "category": 4},
            {"question": "How many cats?", "answer": 1, "evidence": ["D1:2; D2:1"], "category": 1},
            {"question": "Is the cat Ann's?", "adversarial_answer": "yes", "evidence": ["D9:9"], "category": 5},
        ],
    }


def _write(tmp_path: Path, data, name="bad.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_tiny_file_loads(tmp_path):
    ds = locomo.load_file(_write(tmp_path, [_sample()], "ok.json"))
    (c,) = ds.conversations
    assert [s.index for s in c.sessions] == [1, 2]
    assert c.turn_by_id["D1:2"].caption == "a photo of a cat"
    assert [q.answer for q in c.questions] == ["a cat", "1", ""]
    assert c.questions[1].evidence == ("D1:2", "D2:1")
    assert ds.report.summary() == "evidence: 1 ids repaired, 1 dropped ('D9:9' in conv-1 qa[2]: names no turn)"


def test_ten_sorts_after_nine(tmp_path):
    s = _sample()
    conv = s["conversation"]
    for n in (10, 9, 3):
        conv[f"session_{n}_date_time"] = "1:00 pm on 1 June, 2023"
        conv[f"session_{n}"] = [{"speaker": "Ann", "dia_id": f"D{n}:1", "text": "x"}]
    ds = locomo.load_file(_write(tmp_path, [s]))
    assert [x.index for x in ds.conversations[0].sessions] == [1, 2, 3, 9, 10]


def _mutate(fn):
    s = _sample()
    fn(s)
    return [s]


def _set(path, value):
    def fn(s):
        obj = s
        for key in path[:-1]:
            obj = obj[key]
        obj[path[-1]] = value

    return fn


def _delete(path):
    def fn(s):
        obj = s
        for key in path[:-1]:
            obj = obj[key]
        del obj[path[-1]]

    return fn


C = "conversation"
BAD = {
    "not a list": ({"sample_id": "conv-1"}, "top level", "expected a list of samples"),
    "empty list": ([], "top level", "empty"),
    "sample not an object": (["conv-1"], "[0]", "expected a sample object"),
    "no sample id": (_mutate(_delete(["sample_id"])), "[0].sample_id", "missing"),
    "no conversation": (_mutate(_delete([C])), "conv-1 [0].conversation", "no conversation"),
    "conversation not an object": (_mutate(_set([C], [])), "conv-1 [0].conversation", "expected an object"),
    "no speaker_b": (_mutate(_delete([C, "speaker_b"])), "conv-1 conversation.speaker_b", "missing"),
    "no sessions": (
        _mutate(lambda s: s.__setitem__(C, {"speaker_a": "A", "speaker_b": "B"})),
        "conv-1 conversation",
        "no sessions",
    ),
    "turn without text": (_mutate(_delete([C, "session_1", 1, "text"])), "conv-1 session_1 D1:2", "no text"),
    "turn text not a string": (_mutate(_set([C, "session_1", 0, "text"], 7)), "conv-1 session_1 D1:1", "text must be a string"),
    "turn text null": (_mutate(_set([C, "session_2", 0, "text"], None)), "conv-1 session_2 D2:1", "got null"),
    "caption not a string": (_mutate(_set([C, "session_1", 1, "blip_caption"], ["cat"])), "conv-1 session_1 D1:2", "blip_caption"),
    "turn without dia id": (_mutate(_delete([C, "session_1", 1, "dia_id"])), "conv-1 session_1 turn[1]", "no dia_id"),
    "malformed dia id": (_mutate(_set([C, "session_1", 1, "dia_id"], "1:2")), "conv-1 session_1 turn[1]", "malformed dia id"),
    "turn not an object": (_mutate(_set([C, "session_1", 0], "Hi")), "conv-1 session_1 turn[0]", "expected a turn object"),
    "unknown speaker": (_mutate(_set([C, "session_2", 0, "speaker"], "Eve")), "conv-1 session_2 D2:1", "unknown speaker 'Eve'"),
    "session without date": (_mutate(_delete([C, "session_2_date_time"])), "conv-1 session_2", "session_2_date_time missing"),
    "unparseable date": (_mutate(_set([C, "session_2_date_time"], "last Tuesday")), "conv-1 session_2", "unparseable date 'last Tuesday'"),
    "date not a string": (_mutate(_set([C, "session_2_date_time"], 20230509)), "conv-1 session_2", "must be a string"),
    "empty session": (_mutate(_set([C, "session_2"], [])), "conv-1 session_2", "empty session"),
    "session not a list": (_mutate(_set([C, "session_2"], {"D2:1": "x"})), "conv-1 session_2", "expected a list of turns"),
    "duplicate dia id": (_mutate(_set([C, "session_2", 0, "dia_id"], "D1:1")), "conv-1 session_2 D1:1", "duplicate dia id"),
    "duplicate sample id": ([_sample(), _sample()], "[1].sample_id", "duplicate sample id 'conv-1'"),
    "no qa": (_mutate(_delete(["qa"])), "conv-1 [0].qa", "no qa"),
    "unknown category": (_mutate(_set(["qa", 1, "category"], 7)), "conv-1 qa[1]", "unknown category 7"),
    "category as string": (_mutate(_set(["qa", 1, "category"], "2")), "conv-1 qa[1]", "unknown category '2'"),
    "no category": (_mutate(_delete(["qa", 0, "category"])), "conv-1 qa[0]", "no category"),
    "question without text": (_mutate(_delete(["qa", 2, "question"])), "conv-1 qa[2]", "no text"),
    "question text empty": (_mutate(_set(["qa", 0, "question"], " ")), "conv-1 qa[0]", "empty"),
    "question text not a string": (_mutate(_set(["qa", 0, "question"], ["?"])), "conv-1 qa[0]", "must be a string"),
    "question without answer": (_mutate(_delete(["qa", 0, "answer"])), "conv-1 qa[0]", "no answer"),
    "answer of wrong type": (_mutate(_set(["qa", 0, "answer"], {"a": 1})), "conv-1 qa[0]", "answer must be a string or a number"),
    "evidence not a list": (_mutate(_set(["qa", 0, "evidence"], "D1:2")), "conv-1 qa[0]", "evidence must be a list of strings"),
    "evidence item not a string": (_mutate(_set(["qa", 0, "evidence"], ["D1:2", 3])), "conv-1 qa[0]", "evidence must be a list of strings"),
    "question not an object": (_mutate(_set(["qa", 0], "What?")), "conv-1 qa[0]", "expected a question object"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input(tmp_path, case):
    data, place, problem = BAD[case]
    path = _write(tmp_path, copy.deepcopy(data))
    with pytest.raises(DataError) as info:
        locomo.load_file(path)
    msg = str(info.value)
    assert msg.startswith(f"{path}: {place}: "), msg
    assert problem in msg
    assert "\n" not in msg
    assert info.value.__cause__ is None
    assert info.value.__context__ is None or info.value.__suppress_context__


@pytest.mark.parametrize(
    "content, problem",
    [
        ("{not json", "not JSON (line 1, column 2"),
        ("", "not JSON"),
        ('[{"sample_id": "conv-1",', "not JSON"),
    ],
)
def test_not_json(tmp_path, content, problem):
    path = _write(tmp_path, content)
    with pytest.raises(DataError, match=r"^.*bad\.json: not JSON") as info:
        locomo.load_file(path)
    assert problem in str(info.value)


def test_not_utf8(tmp_path):
    path = tmp_path / "bad.json"
    path.write_bytes(b'[{"sample_id": "\xff"}]')
    with pytest.raises(DataError, match="bad.json: not JSON"):
        locomo.load_file(path)


def test_missing_file(tmp_path):
    path = tmp_path / "nope.json"
    with pytest.raises(DataError) as info:
        locomo.load_file(path)
    assert str(info.value) == f"{path}: no such file"


def test_directory(tmp_path):
    with pytest.raises(DataError, match="is a directory"):
        locomo.load_file(tmp_path)


def test_missing_file_from_environment(tmp_path, monkeypatch):
    path = tmp_path / "nope.json"
    monkeypatch.setenv("GRAPHMEM_LOCOMO", str(path))
    with pytest.raises(DataError) as info:
        locomo.load_dataset()
    assert str(info.value) == f"{path}: no such file (from $GRAPHMEM_LOCOMO)"


# --------------------------------------------------------------------------- where the file comes from


def test_explicit_path_beats_environment(tmp_path, monkeypatch):
    mine = _write(tmp_path, [_sample("mine")], "mine.json")
    env = _write(tmp_path, [_sample("env")], "env.json")
    monkeypatch.setenv("GRAPHMEM_LOCOMO", str(env))
    assert locomo.load_dataset(mine).conversations[0].id == "mine"
    assert locomo.load_dataset(str(mine)).path == mine
    assert locomo.load_dataset().conversations[0].id == "env"


def test_cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHMEM_CACHE", str(tmp_path / "c"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert fetch.cache_dir() == tmp_path / "c"
    monkeypatch.delenv("GRAPHMEM_CACHE")
    assert fetch.cache_dir() == tmp_path / "x" / "graphmem"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert fetch.cache_dir() == tmp_path / "home" / ".cache" / "graphmem"
    assert fetch.cache_path() == tmp_path / "home" / ".cache" / "graphmem" / "locomo10.json"


def test_constants():
    assert fetch.LOCOMO_URL == "https://raw.githubusercontent.com/snap-research/LoCoMo/main/data/locomo10.json"
    assert fetch.LOCOMO_SHA256 == "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4"


def test_questions_with_evidence_carry_their_scoped_ids(dataset):
    rows = list(dataset.with_evidence())
    assert len(rows) == sum(bool(q.evidence) for c in dataset.conversations for q in c.questions)
    assert 0 < len(rows) < dataset.questions  # some questions (the empty-context ones) name no evidence
    for c, q, wanted in rows:
        assert wanted == {f"{c.id}/{e}" for e in q.evidence}
        assert all(w.split("/", 1)[1] in c.turn_by_id for w in wanted)
