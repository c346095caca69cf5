"""The model reader's prompt, its tidy step and the disk cache's keys: no endpoint needed."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

import pytest

from graphmem.bench.model.reader import SHAPE, closed_prompt, evidence_prompt, tidy, when
from graphmem.bench.model.cache import AnswerCache, Cached, cache_key
from graphmem.bench.model.client import chat_url
from graphmem.answer.reader import ABSTAIN
from graphmem.errors import DataError, ModelUnavailable


@dataclass(frozen=True)
class T:
    date: datetime
    speaker: str
    text: str


TURNS = [T(datetime(2023, 5, 8, 13, 56), "Caroline", "I went to a LGBTQ support group  yesterday."),
         T(datetime(2023, 5, 25, 9, 0), "Melanie", "We went camping with the kids last week!")]


def test_evidence_prompt_holds_date_speaker_words_question_and_shape():
    prompt = evidence_prompt("When did Caroline go to the support group? ", TURNS)
    assert "[8 May, 2023] Caroline: I went to a LGBTQ support group yesterday." in prompt  # whitespace folded
    assert "[25 May, 2023] Melanie: We went camping with the kids last week!" in prompt
    assert prompt.index("Caroline:") < prompt.index("Melanie:")  # the memory's order
    assert "Question: When did Caroline go to the support group?\nAnswer:" in prompt
    assert prompt.endswith("Answer:")
    assert SHAPE in prompt
    for asked in ("a few words", "own wording", "by commas", '"8 May, 2023"', f"reply exactly: {ABSTAIN}"):
        assert asked in SHAPE


def test_a_turn_cited_twice_is_shown_once():
    prompt = evidence_prompt("Q?", [TURNS[0], TURNS[1], TURNS[0]])
    assert prompt.count("Caroline:") == 1


def test_closed_prompt_has_the_same_shape_and_no_evidence():
    prompt = closed_prompt("What did Caroline research?")
    assert SHAPE in prompt
    assert "Question: What did Caroline research?\nAnswer:" in prompt
    assert "[" not in prompt and "turns" not in prompt


def test_when_writes_locomo_dates():
    assert when(datetime(2023, 5, 8)) == "8 May, 2023"
    assert when(datetime(2022, 10, 22, 23, 59)) == "22 October, 2022"


@pytest.mark.parametrize("raw, tidied", [
    ("Paris", "Paris"),
    ("  Paris.  ", "Paris"),
    ("Answer: Paris", "Paris"),
    ("answer:Paris.", "Paris"),
    ('"Paris".', "Paris"),
    ('Answer: "pottery, painting".', "pottery, painting"),
    ("\u201cthe beach\u201d", "the beach"),
    ("'7 May, 2023'", "7 May, 2023"),
    ("<think>She said yesterday, so 7 May.</think>\n7 May, 2023.", "7 May, 2023"),
    ("No information available.", ABSTAIN),
    ("and then...", "and then..."),          # an ellipsis is content
    ('He said "hi" to me', 'He said "hi" to me'),  # quotes inside are content
    ("Mr. Smith's answer: yes", "Mr. Smith's answer: yes"),  # only a leading label goes
    ("", ""),
])
def test_tidy_strips_only_wrapping(raw, tidied):
    assert tidy(raw) == tidied


def test_cache_key_depends_on_model_cap_and_exact_prompt():
    k = cache_key("m", 32, "p")
    assert k == cache_key("m", 32, "p") and len(k) == 64
    assert len({k, cache_key("m2", 32, "p"), cache_key("m", 16, "p"), cache_key("m", 32, "p "),
                cache_key("", 32, "mp")}) == 5


def test_cache_round_trip_and_mismatch_is_a_miss(tmp_path):
    cache = AnswerCache(tmp_path)
    assert cache.get("m", 32, "p") is None
    record = Cached("m", 32, "p", " Paris. ", 12, 3)
    path = cache.put(record)
    assert path.parent.parent == tmp_path and path.name == cache_key("m", 32, "p") + ".json"
    assert cache.get("m", 32, "p") == record
    assert cache.get("m", 32, "q") is None
    # a file copied under another request's name answers nothing
    other = cache.path(cache_key("m", 32, "q"))
    other.parent.mkdir(parents=True, exist_ok=True)
    other.write_text(path.read_text())
    assert cache.get("m", 32, "q") is None
    assert not list(tmp_path.rglob(".tmp-*"))


def test_a_corrupt_cache_file_names_itself(tmp_path):
    cache = AnswerCache(tmp_path)
    path = cache.path(cache_key("m", 32, "p"))
    path.parent.mkdir(parents=True)
    path.write_text("{half")
    with pytest.raises(DataError, match=str(path)):
        cache.get("m", 32, "p")
    path.write_text(json.dumps({"model": "m"}))
    with pytest.raises(DataError, match="not a kept model reply"):
        cache.get("m", 32, "p")


@pytest.mark.parametrize("url, route", [
    ("http://127.0.0.1:8088", "http://127.0.0.1:8088/v1/chat/completions"),
    ("http://127.0.0.1:8088/", "http://127.0.0.1:8088/v1/chat/completions"),
    ("http://127.0.0.1:8088/v1", "http://127.0.0.1:8088/v1/chat/completions"),
    ("https://api.example.com/v1/chat/completions", "https://api.example.com/v1/chat/completions"),
])
def test_chat_url(url, route):
    assert chat_url(url) == route


def test_chat_url_refuses_what_is_no_url():
    with pytest.raises(ModelUnavailable, match="not an http"):
        chat_url("127.0.0.1:8088")
