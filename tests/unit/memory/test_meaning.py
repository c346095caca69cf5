"""``Memory(confidence="meaning")``: between a person and an assistant an answer is judged by an
embedding's cosine and WordNet's kinds; two people talking keep the word coverage.

Needs the dense extra (multilingual-e5-small) and, for the kinds, WordNet's database
(``scripts/wordnet-local``; ``.ci/run`` installs it): skipped locally without them, failed in CI.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from graphmem import Memory
from graphmem.answer.reader import ABSTAIN
from graphmem.errors import MisuseError
from graphmem.memory.api import FLOOR, Answer
from graphmem.memory.meaning import MEANING_FLOOR
from graphmem.index.options import MemoryOptions
from tests.conftest import need_meaning

CHAT = [
    {"id": "u1", "speaker": "user", "text": "I played baseball every weekend last summer with my cousins.",
     "conversation": "s1"},
    {"id": "a1", "speaker": "assistant", "text": "That sounds like fun! Baseball keeps you active.", "conversation": "s1"},
    {"id": "u2", "speaker": "user", "text": "I also adopted a cat named Whiskers in May.", "conversation": "s1"},
]
FRIENDS = [
    {"id": "f1", "speaker": "Ann", "text": "I played baseball every weekend last summer.", "conversation": "c1"},
    {"id": "f2", "speaker": "Bob", "text": "Nice, I went hiking in the Alps.", "conversation": "c1"},
]


@pytest.fixture(autouse=True)
def _extra() -> None:
    need_meaning()  # the dense extra for every test here; WordNet for most (installed together, in CI by .ci/run)


def test_an_exchange_with_an_assistant_is_judged_by_meaning() -> None:
    mem = Memory(confidence="meaning")
    mem.ingest(CHAT)
    answer = mem.ask("What sport did I play last summer?")
    assert answer.measure == "meaning"
    assert MEANING_FLOOR <= answer.confidence <= 1.0  # a cosine, and this one clears the floor
    assert not answer.quiet and "baseball" in answer.reply
    assert answer.cited[0] == "u1"


def test_a_swapped_kind_is_quiet_where_coverage_would_answer() -> None:
    """Football for the baseball told: coverage finds most of the question's words, the kinds do not."""
    question = "How often did I play football last summer?"
    plain = Memory()
    plain.ingest(CHAT)
    assert plain.ask(question).confidence >= FLOOR and not plain.ask(question).quiet
    mem = Memory(confidence="meaning")
    mem.ingest(CHAT)
    answer = mem.ask(question)
    assert (answer.measure, answer.confidence, answer.quiet) == ("meaning", 0.0, True)
    assert answer.cited  # still cited: what was found is shown, only not read as an answer


def test_without_the_kinds_the_cosine_alone_judges() -> None:
    mem = Memory(confidence="meaning", options=MemoryOptions(meaning_kinds=False))
    mem.ingest(CHAT)
    answer = mem.ask("How often did I play football last summer?")
    assert answer.measure == "meaning" and 0.5 < answer.confidence < 1.0


def test_the_floor_is_the_memorys_own_for_meaning() -> None:
    mem = Memory(confidence="meaning", options=MemoryOptions(meaning_kinds=False), meaning_floor=0.99)
    mem.ingest(CHAT)
    answer = mem.ask("What sport did I play last summer?")
    assert answer.confidence < 0.99 and answer.quiet


def test_two_people_keep_the_word_coverage() -> None:
    """No assistant speaks: the answer is the default memory's, measure and all."""
    plain, mem = Memory(), Memory(confidence="meaning", options=MemoryOptions(meaning_kinds=False))
    plain.ingest(FRIENDS)
    mem.ingest(FRIENDS)
    for question in ("What sport did Ann play?", "Where did Bob go hiking?", "What did Ann eat in Paris?"):
        assert mem.ask(question) == plain.ask(question)
        assert mem.ask(question).measure == "coverage"


def test_the_meaning_confidence_reads_ten_turns_but_cites_k() -> None:
    """``ask(k=2)`` cites two turns and judges by ten: its confidence is ``answer_from``'s given the
    ten, and above what the first two alone give (a turn further down says it better)."""
    shows = [{"id": f"t{i}", "speaker": "user", "text": f"Radio show {i} was all pitch counts and perfect game trivia.",
              "conversation": "s1"} for i in range(8)]
    told = {"id": "u1", "speaker": "user", "text": "I threw a no-hitter in my last game, every batter out.",
            "conversation": "s1"}
    mem = Memory(confidence="meaning", options=MemoryOptions(meaning_kinds=False))
    mem.ingest([*shows, told, {"id": "a1", "speaker": "assistant", "text": "Congratulations!", "conversation": "s1"}])
    question = "Did I pitch a perfect game?"
    assert mem.confidence_turns == 10 and Memory().confidence_turns == 1
    found = mem.records_for(question, 10)
    assert len(found) == 9
    answer = mem.ask(question, k=2)
    assert answer.cited == tuple(r.id for r in found[:2]) and answer.measure == "meaning"
    assert answer.confidence == mem.answer_from(question, found, cite=2).confidence
    assert answer.confidence > mem.answer_from(question, found[:2]).confidence


def test_nothing_found_is_judged_by_the_memorys_confidence() -> None:
    mem = Memory(confidence="meaning", options=MemoryOptions(meaning_kinds=False))
    mem.ingest(CHAT)
    assert mem.ask("Quantum chromodynamics?") == Answer(ABSTAIN, (), 0.0, "meaning")
    assert mem.ask("What sport did I play?", k=0) == Answer(ABSTAIN, (), 0.0, "meaning")
    assert Memory().ask("Anything?") == Answer(ABSTAIN, (), 0.0, "coverage")
    with pytest.raises(MisuseError, match="meaning_turns must be at least 1"):
        Memory(confidence="meaning", options=MemoryOptions(meaning_kinds=False, meaning_turns=0))


def test_a_question_in_chinese_is_embedded_as_asked_and_not_kind_tested() -> None:
    mem = Memory(confidence="meaning")
    mem.ingest(CHAT)
    found = mem.records_for("What sport did I play last summer?", 10)
    assert mem._meaning.swap("我去年夏天踢足球吗?", found) is None  # a gloss lists every sense: not tested
    assert mem._meaning("我去年夏天打什么球?", found) > 0.5


def test_an_unknown_confidence_is_refused() -> None:
    with pytest.raises(MisuseError, match="unknown confidence 'sure'"):
        Memory(confidence="sure")


def test_missing_wordnet_is_one_line(tmp_path) -> None:
    """No WordNet where NLTK looks: one line saying how to install it, not a LookupError."""
    env = {**os.environ, "HOME": str(tmp_path), "NLTK_DATA": str(tmp_path / "none")}
    code = ("from graphmem.text.kinds import wordnet\nfrom graphmem.errors import GraphmemError\n"
            "try:\n    wordnet()\nexcept GraphmemError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    if out.stdout == "":
        pytest.skip("NLTK finds WordNet in a system folder too")
    assert out.stdout.startswith("WordNet is not in NLTK's data:") and "scripts/wordnet-local" in out.stdout
    assert out.stdout.count("\n") == 1


def test_threads_asking_at_once_read_wordnet_one_at_a_time() -> None:
    """NLTK's WordNet reader shares file handles: asks from several threads (one memory each, over
    a fresh WordNet test with empty caches) all give the answer one thread alone gives."""
    from concurrent.futures import ThreadPoolExecutor

    from graphmem.memory import meaning

    meaning._kinds.cache_clear()
    questions = ["How often did I play football last summer?", "Did I adopt a dog in May?",
                 "What sport did I play last summer?", "Did I adopt a hamster named Whiskers?"] * 4

    def ask(question: str) -> Answer:
        mem = Memory(confidence="meaning")
        mem.ingest(CHAT)
        return mem.ask(question)

    with ThreadPoolExecutor(8) as pool:
        together = list(pool.map(ask, questions))
    assert together == [ask(q) for q in questions]
