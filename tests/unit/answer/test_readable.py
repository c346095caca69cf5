"""The readable reader: one contiguous phrase of one cited turn, as written, and the sentence it came from."""

from __future__ import annotations

from datetime import datetime

import pytest

from graphmem import Memory
from graphmem.answer import readable
from graphmem.answer.reader import Hit
from graphmem.domain import ABSTAIN
from graphmem.errors import MisuseError
from graphmem.index.options import MemoryOptions
from graphmem.index.query import Query
from graphmem.text.dates import is_when, resolve_date

ALICE = [
    {"id": "m1", "speaker": "Alice", "text": "I live in Paris and I work as a nurse.", "date": "2023-01-10"},
    {"id": "m2", "speaker": "Bob", "text": "Paris is lovely, Alice!", "date": "2023-01-10"},
    {"id": "m3", "speaker": "Alice", "text": "I moved from Paris to Berlin last month.", "date": "2023-06-02"},
    {"id": "m4", "speaker": "Bob", "text": "Berlin suits you."},
]


def _memory(records: list[dict], **kw) -> tuple[Memory, dict]:
    mem = Memory(**kw)
    mem.ingest(records)
    return mem, {t.id: t for t in mem.turns()}


def _read(mem: Memory, question: str, found: list) -> readable.Reading:
    """The reader itself over ``found`` in this order, with the memory's own weights."""
    vocab = mem.store.weights(Query.parse(question), found)
    return readable.read(question, [Hit(t.id, t.text, t.date or datetime.now()) for t in found], vocab)


@pytest.mark.parametrize("order, place, not_place", [(["m3", "m1", "m2", "m4"], "Berlin", "Paris"),
                                                      (["m1", "m3", "m2", "m4"], "Paris", "Berlin")])
def test_where_someone_lives_is_read_off_the_first_turn_found(order, place, not_place):
    """The lead's case: whichever of the two turns the search puts first says where Alice lives;
    a move's destination is where she is, the place she left is not."""
    mem, turns = _memory(ALICE)
    found = [turns[i] for i in order]
    got = _read(mem, "Where does Alice live?", found)
    assert place in got.reply and not_place not in got.reply
    assert got.source == order[0] and got.reply in got.sentence and got.sentence in turns[order[0]].text
    # through the memory too, at a floor the first turn clears (m3 says neither "Alice" nor "live")
    answer = Memory(floor=0.0, store=mem.store).answer_from("Where does Alice live?", found)
    assert (answer.reply, answer.source, answer.sentence) == (got.reply, got.source, got.sentence)


def test_a_when_question_is_answered_by_a_date_read_off_the_session():
    mem, turns = _memory(ALICE)
    answer = mem.answer_from("When did Alice move to Berlin?", [turns["m3"], turns["m1"]])
    assert answer.reply == resolve_date("I moved from Paris to Berlin last month.", turns["m3"].date)
    assert answer.reply not in turns["m3"].text  # a date resolved, not a quote
    assert (answer.source, answer.sentence) == ("m3", "I moved from Paris to Berlin last month.")
    assert _read(mem, "When did Alice move to Berlin?", [turns["m3"]]).dated


def test_how_many_replies_with_the_number_and_what_it_counts():
    mem, turns = _memory([
        {"id": "a1", "speaker": "Ann", "text": "Busy week! We have three dogs and a cat at home now.", "date": "2023-05-08"},
        {"id": "b1", "speaker": "Bob", "text": "That sounds like a full house.", "date": "2023-05-08"},
    ])
    got = _read(mem, "How many dogs does Ann have?", [turns["a1"], turns["b1"]])
    assert got.reply == "three dogs" and got.sentence == "We have three dogs and a cat at home now."
    mem, turns = _memory([{"id": "h1", "speaker": "Ann", "text": "We offered $340,000 for the townhouse.", "date": "2023-05-08"}])
    assert _read(mem, "How much did Ann offer for the townhouse?", [turns["h1"]]).reply == "$340,000"


def test_a_question_ending_in_a_preposition_is_answered_by_what_follows_it():
    mem, turns = _memory(ALICE)
    assert _read(mem, "What does Alice work as?", [turns["m1"]]).reply == "a nurse"
    assert _read(mem, "Where did Alice move to?", [turns["m3"]]).reply == "Berlin"


def test_a_reply_is_quoted_as_written_curly_quotes_and_broken_lines_kept():
    text = "Hi!\nWe’re adopting   a puppy named “Pixie” from a breeder in Ohio\nnext week."
    mem, turns = _memory([{"id": "t1", "speaker": "Ann", "text": text, "date": "2023-05-08"}])
    got = _read(mem, "Where is Ann adopting a puppy from?", [turns["t1"]])
    assert got.reply and got.reply in text and got.sentence in text and got.reply in got.sentence
    assert "breeder" in got.reply
    named = _read(mem, "What is the name of Ann's puppy?", [turns["t1"]])
    assert "Pixie" in named.reply and named.reply in text


def test_a_turn_asking_the_question_back_is_no_answer():
    mem, turns = _memory([
        {"id": "q1", "speaker": "Mel", "text": "What a lovely pic! How long have you been married?", "date": "2023-05-08"},
        {"id": "r1", "speaker": "Ann", "text": "Five years now, and still happy.", "date": "2023-05-08"},
    ])
    assert _read(mem, "How long has Ann been married?", [turns["q1"], turns["r1"]]).reply == ABSTAIN
    assert _read(mem, "How long has Ann been married?", [turns["r1"]]).reply == "Five years"


def test_a_turn_of_empty_words_gives_way_to_the_next():
    """"I'm off to go do some research" says nothing of what was researched: the next turn does."""
    mem, turns = _memory([
        {"id": "c1", "speaker": "Cara", "text": "Well, I'm off to go do some research.", "date": "2023-05-08"},
        {"id": "c2", "speaker": "Cara", "text": "Researching adoption agencies: it's been a dream of mine.", "date": "2023-05-25"},
    ])
    got = _read(mem, "What did Cara research?", [turns["c1"], turns["c2"]])
    assert got.reply == "adoption agencies" and got.source == "c2"


def test_the_bench_reader_stays_a_setting_and_an_unknown_reader_is_refused():
    mem, _ = _memory(ALICE, options=MemoryOptions(reader="extractive"))
    answer = mem.ask("What does Alice work as?")
    assert answer.reply != ABSTAIN and (answer.sentence, answer.source) == ("", "")
    with pytest.raises(MisuseError, match="unknown reader"):
        Memory(options=MemoryOptions(reader="stitched"))


@pytest.fixture(scope="module")
def locomo_memory(dataset):
    """Two LoCoMo conversations in one memory, and their questions."""
    samples = dataset.conversations[:2]
    mem = Memory()
    mem.ingest({"id": f"{c.id}/{t.id}", "speaker": t.speaker, "text": t.text, "date": t.date, "conversation": c.id}
               for c in samples for t in c.turns)
    return mem, [q.text for c in samples for q in c.questions]


def test_every_reply_on_locomo_is_a_phrase_of_a_cited_turn_or_a_date(locomo_memory):
    mem, questions = locomo_memory
    texts = {t.id: t.text for t in mem.turns()}
    quoted = 0
    for question in questions:
        answer = mem.ask(question)
        if answer.quiet:
            assert (answer.sentence, answer.source) == ("", ""), question
            continue
        assert answer.source in answer.cited and answer.sentence in texts[answer.source], question
        if is_when(question):
            continue  # a date read off the session
        if answer.measure in ("fact", "said"):  # several values held ("Bailey and Oliver"): each a phrase of a turn cited
            cited = " ".join(texts[i] for i in answer.cited)
            assert all(v in cited for v in answer.reply.split(" and ")), (question, answer)
        else:
            assert answer.reply in answer.sentence and answer.reply == answer.reply.strip(), (question, answer)
        assert answer.reply[-1].isalnum() or answer.reply[-1] in "'’", (question, answer)
        quoted += 1
    assert quoted > len(questions) / 3  # most questions are answered by a quote, not a few


def test_a_reply_from_a_huge_clause_is_a_bounded_phrase():
    """A turn of thousands of words with no clause break: the reply is still a phrase of at most
    ``LONGEST`` tokens (the search for it is bounded by that, not by the clause)."""
    from graphmem import Memory
    from graphmem.answer.readable import LONGEST

    mem = Memory()
    filler = " ".join(f"word{i} lake kayak" for i in range(3000))
    mem.ingest([{"id": "a", "speaker": "Ann", "text": "I went kayaking on the lake " + filler, "date": "2023-05-01"},
                {"id": "b", "speaker": "Bob", "text": "Nice", "date": "2023-05-01"}])
    answer = mem.ask("Where did Ann go kayaking?")
    assert answer.source == "a" and 0 < len(answer.reply.split()) <= LONGEST
