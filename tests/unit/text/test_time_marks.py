"""One reading of a turn's time (``time_marks``) is the three readings it replaces, and the cheap
word test before each scan never turns a match away: checked on every LoCoMo turn and on
hand-made texts that sit on the edges of the expressions."""

from __future__ import annotations

from datetime import datetime

import pytest

from graphmem.text import dates
from graphmem.text.dates import ANSWER_TYPES, days_spoken_of, says_how_long, says_when, time_marks
from graphmem.text.terms import words

SAID = datetime(2023, 5, 8, 13, 56)
EDGES = [
    "I went bowling yesterday.", "Last night was fun", "two weeks ago", "3 months ago we moved", "back in May",
    "since 2019 I paint", "in 2022", "on Friday", "this past Sunday", "this Friday", "tomorrow!", "tonight",
    "next weekend", "for a month now", "three years", "several days", "a couple of hours", "24 minutes",
    "Mayday", "lastly, nothing", "I am 20", "Todays news", "", "YESTERDAY I SAW IT", "In December, snow",
]


def _texts(dataset) -> list[str]:
    return EDGES + [t.text for conv in dataset.conversations for t in conv.turns]


def test_time_marks_is_the_three_readings_it_replaces(dataset):
    kinds = tuple(ANSWER_TYPES)
    scans = {"when": dates._RELATIVE, "how long": dates._DURATION}  # the bare scans, no word test before them
    assert dates._GIVES.keys() == ANSWER_TYPES.keys() == scans.keys()
    for text in _texts(dataset):
        spans, types = time_marks(text, SAID, kinds)
        assert spans == days_spoken_of(text, SAID), text
        assert types == tuple(k for k in kinds if ANSWER_TYPES[k](text)), text
        assert types == tuple(k for k in kinds if scans[k].search(text.lower())), text
        assert time_marks(text, None, kinds) == ([], types)
        assert time_marks(text, SAID, ("how long",))[1] == tuple(k for k in types if k == "how long")


@pytest.mark.parametrize("test, scan", [(says_when, dates._RELATIVE), (says_how_long, dates._DURATION)])
def test_the_word_test_before_a_scan_turns_no_match_away(dataset, test, scan):
    texts = _texts(dataset)
    found = [scan.search(t.lower()) is not None for t in texts]
    assert [test(t) for t in texts] == found
    assert 0 < sum(found) < len(texts)  # both kinds of text are there


def test_time_marks_given_the_words_is_time_marks_without_them(dataset):
    kinds = tuple(ANSWER_TYPES)
    marked = 0
    for text in _texts(dataset):
        alone = time_marks(text, SAID, kinds)
        assert time_marks(text, SAID, kinds, words(text)) == alone, text
        marked += bool(alone[1])
    assert marked > 100  # texts of either answer type are among them


def test_every_match_of_a_scan_holds_one_of_its_words(dataset):
    texts = [t.lower() for t in _texts(dataset)] + ["i saw them tonight", "it was 2019", "back in june"]
    assert set(dates._SCAN_WORDS) == {dates._YESTERDAY, dates._AGO, dates._NEAR, dates._WEEKDAY, dates._IN_MONTH,
                                      dates._IN_YEAR, dates._AHEAD}
    for pattern, needed in dates._SCAN_WORDS.items():
        matches = [m.group(0) for t in texts for m in pattern.finditer(t)]
        assert matches, pattern.pattern  # each is met at least once here
        assert all(any(w in m for w in needed) for m in matches), pattern.pattern
