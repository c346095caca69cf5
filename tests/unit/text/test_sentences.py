"""joined: the sentences of a text joined by one space, without asking where each ends."""

import pytest

from graphmem.text.sentences import QUOTES, joined, sentences, straight


@pytest.mark.parametrize("text", [
    "", "  ", "a.  b", "Hi.\n\n  there", "x. \u2018y\u2019 z!  \t w", "e.g.  this", "Mr.  Smith", 'end."  Next',
    "so...  anyway", " lead", "\u2026  next", "one line\r\nand another", "No end  but  spaces",
    "one space only. Two sentences", "a\tb. c", "a.\tb", "a.\u00a0b", "a.\u2028b", "a\u3000b. c", "a. \u200bb",
])
def test_joined_is_the_sentences_joined(text):
    assert joined(text) == " ".join(sentences(text) or [text])


def test_joined_on_every_locomo_turn(dataset):
    texts = [t.text for conv in dataset.conversations for t in conv.turns]
    assert [joined(t) for t in texts] == [" ".join(sentences(t) or [t]) for t in texts]


def test_every_white_space_character_but_the_plain_space_is_unprintable():
    """What ``joined``'s shortcut (a printable text without a double space has nothing to join) rests on."""
    assert all(not chr(c).isprintable() for c in range(0x110000) if chr(c).isspace() and c != 0x20)


@pytest.mark.parametrize("text", ["plain ascii", "a `tick`", "\u2018curly\u2019 \u201cquotes\u201d", "caf\u00e9", ""])
def test_straight_is_the_translation_it_spares(text):
    assert straight(text) == text.translate(QUOTES)


def test_a_text_of_one_line_splits_as_the_line_splitter_would_split_it():
    """``sentences`` asks the line splitter only of a text with a line break in it."""
    from graphmem.text.sentences import _LINES

    for text in ("one. two", "one\u2028two", "a\rb", "a\x0bb", "x \u0085 y"):
        assert "\n" in text or _LINES.split(text) == [text]


def test_token_words_are_tokens_without_their_offsets(dataset):
    from graphmem.text.sentences import token_words, tokens

    for text in [t.text for conv in dataset.conversations for t in conv.turns][:2000] + ["\u0130stanbul, Mel!", "don't-stop 's"]:
        toks, low, _ = tokens(text)
        assert token_words(text) == (toks, low)
