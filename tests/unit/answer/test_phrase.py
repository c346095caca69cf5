"""The phrase reader quotes one stretch of one sentence, not a bag of its rarest words."""

from __future__ import annotations

from graphmem.answer.phrase import phrase

RARITY = {"billi": 5.0, "marrow": 6.0, "carrot": 3.0, "love": 1.0, "littl": 1.0, "call": 1.0}


def weight(stem: str) -> float:
    return RARITY.get(stem, 0.5)


def test_the_densest_stretch_of_new_words_as_written():
    sentence = "I have a little hamster called Billy Marrows and he loves carrots."
    assert phrase(sentence, {"hamster": 1.0, "name": 1.0}, weight, 4) == "Billy Marrows"


def test_a_reply_is_always_a_substring_and_never_the_question_again():
    sentence = "My hamster, Billy, loves carrots!"
    got = phrase(sentence, {"hamster": 1.0}, weight, 4)
    assert got in sentence and "hamster" not in got.lower()
    assert phrase("My hamster.", {"hamster": 1.0}, weight, 4) == ""


def test_span_bounds_the_content_words():
    sentence = "Billy Marrows loves carrots"
    assert phrase(sentence, {}, weight, 1) == "Marrows"
    assert phrase(sentence, {}, weight, 2) == "Billy Marrows"
