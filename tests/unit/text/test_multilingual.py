"""Text that is not English: words in any script are indexed and found, accented or not.

The word rules are :mod:`graphmem.text.scripts`; the retrieval check runs the hand-written set
``multilingual.json`` (German, French, Spanish, Russian, Greek, Hebrew: the set
``bench/multilingual.py`` measures) through the memory the package ships.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from graphmem import Memory
from graphmem.text import terms
from graphmem.text.scripts import is_cjk, unicode_words

DATA = json.loads((Path(__file__).parent / "multilingual.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def memory() -> Memory:
    mem = Memory()
    mem.ingest({k: t[k] for k in ("id", "conversation", "speaker", "text")} for t in DATA["turns"])
    return mem


@pytest.mark.parametrize("q", DATA["questions"], ids=lambda q: f"{q['lang']}:{q['answer']}")
def test_every_question_finds_its_turn_in_the_top_five(memory, q):
    assert q["answer"] in memory.search(q["question"], k=5), q["question"]


def test_zurich_is_not_i_got_rich(memory):
    """The split that kept only [a-z0-9] read "Zürich" as "z" + "rich" and ranked "I got rich" first."""
    for query in ("Zürich", "Zurich", "ZÜRICH"):
        found = memory.search(query, k=5)
        assert found[0] in ("de-1", "fe-3") and "de-3" not in found, query
    assert terms.analyse("Zürich") == terms.analyse("Zurich") == ["zurich"]
    assert "rich" not in terms.analyse("Ich war in Zürich")


def test_ascii_text_is_split_as_before():
    """The ASCII path is the pattern's runs, byte for byte; a curly apostrophe still splits two words."""
    runs = re.compile(r"[a-z0-9]+")
    for text in ["I don't eat dairy!", "e-mail: a_b@c.d, 2022/05/20", "Caroline's LGBTQ group, 7 May 2023"]:
        assert terms.words(text) == runs.findall(text.lower())
    assert terms.words("don\u2019t") == ["don", "t"]
    assert terms.words("Caroline\u2019s caf\u00e9") == ["caroline", "s", "cafe"]
    assert terms.analyse("I went to the LGBTQ support group yesterday!") == ["went", "lgbtq", "support", "group", "yesterday"]


def test_cyrillic_greek_and_hebrew_words_are_words():
    assert terms.words("Ольга живёт в Москве.") == ["ольга", "живет", "в", "москве"]
    assert terms.analyse("Ольга живёт в Москве.") == ["ольга", "живет", "москве"]  # a lone letter carries no topic
    assert terms.words("Η Μαρία ζει στην Αθήνα") == ["η", "μαρια", "ζει", "στην", "αθηνα"]
    assert terms.words("ΟΔΟΣ οδός") == ["οδοσ", "οδοσ"]  # case-folded: a final sigma is a sigma
    assert terms.words("דוד גר בחיפה, ליד הים.") == ["דוד", "גר", "בחיפה", "ליד", "הים"]


def test_accents_and_points_fold_away():
    assert terms.analyse("café Café CAFÉ") == terms.analyse("cafe") * 3
    assert terms.words("Straße STRASSE") == ["strasse", "strasse"]
    assert terms.words("København") == terms.words("Kobenhavn") == ["kobenhavn"]
    assert terms.words("e\u0301te\u0301") == ["ete"]  # decomposed accents, as a keyboard may send them
    assert terms.words("ё е й") == ["е", "е", "и"]
    assert terms.words("סַבְתָּא") == ["סבתא"]  # Hebrew vowel points are optional
    assert terms.words("مَدْرَسَة") == ["مدرسة"]  # so are Arabic harakat
    assert terms.words("हिंदी क्षत्रिय") == ["हिंदी", "क्षत्रिय"]  # Indic vowel signs and the virama are letters
    assert terms.words("İstanbul") == ["istanbul"]
    assert terms.words("١٢٣ ۴۵") == ["123", "45"]


def test_compatibility_forms_are_normalised():
    assert terms.words("ｃａｆｅ") == ["cafe"]  # full-width
    assert terms.words("ﬁne ½") == ["fine", "1", "2"]  # a ligature, a fraction
    assert terms.words("Zü\u00adrich") == ["zurich"]  # a soft hyphen is not seen


def test_han_and_kana_are_a_term_each_hangul_runs_a_word():
    assert terms.words("我住在东京。") == ["我", "住", "在", "东", "京"]
    assert terms.analyse("东京") == ["东", "京"]  # a lone ideograph carries topic, a lone letter does not
    assert terms.words("ラーメンが好き") == ["ラ", "ー", "メ", "ン", "が", "好", "き"]
    assert terms.words("한국어 공부") == ["한국어", "공부"]
    assert is_cjk("京") and is_cjk("ラ") and not is_cjk("한") and not is_cjk("a")
    assert terms.content("京") and not terms.content("a")


def test_emoji_and_punctuation_make_no_words():
    assert terms.words("Yoga \U0001f9d8\u200d\u2640\ufe0f done \u2764\ufe0f \u2014 1\ufe0f\u20e3!") == ["yoga", "done", "1"]
    assert unicode_words("\u00ab\u00a0Bésame\u00a0\u00bb \u2026") == ["besame"]


def test_porter_stems_only_words_that_are_ascii_once_folded():
    assert terms.analyse("naïve runners in Zürich") == ["naiv", "runner", "zurich"]
    assert terms.analyse("работаю работает") == ["работаю", "работает"]
    for word in ("москве", "μαρια", "סבתא", "东"):
        assert terms.stem(word) == word  # what the ranker's query side does to them is nothing


def test_chinese_queries_are_still_glossed_into_english():
    """A query holding Han characters keeps its glossing path (graphmem.text.zh), Chinese turns in the memory or not."""
    from graphmem.text import zh

    if not zh.available():
        pytest.skip("the zh extra (CC-CEDICT) is not installed")
    mem = Memory()
    mem.ingest([{"id": "en", "speaker": "Bob", "text": "I went hiking in the Alps last weekend."},
                {"id": "zh", "speaker": "Li", "text": "我昨天在公园散步。"},
                {"id": "other", "speaker": "Ann", "text": "I adopted a dog called Rex yesterday."}])
    assert mem.search("Bob 徒步 阿尔卑斯山", k=1) == ["en"]


def test_the_ascii_shortcut_splits_as_the_whole_table_does():
    """A text whose words fold to ASCII is encoded with only its non-ASCII runs looked up; any
    other is translated whole: the same words either way."""
    import unicodedata

    from graphmem.text import scripts

    def whole(text: str) -> list[str]:
        folded = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text).casefold()).translate(scripts._TABLE)
        return scripts._CJK_CHAR.sub(r" \g<0> ", unicodedata.normalize("NFC", folded)).split()

    texts = [t["text"] for t in DATA["turns"]] + ["It\u2019s \u201cgreat\u201d \u2014 caf\u00e9 \U0001f389", "Zu\u0308rich 東京 x"]
    for text in texts:
        assert unicode_words(text) == whole(text), text


def test_a_hebrew_word_behind_its_prefix_letters_is_found_by_its_bare_form():
    """בגיטרה is ב + גיטרה ("on the guitar"): the prefix letters ב ה ו כ ל מ ש are written onto the word."""
    assert terms.analyse("בגיטרה הגיטרה ובגיטרה גיטרה") == ["גיטרה"] * 4
    assert terms.analyse("בית שלום") == ["בית", "לום"], "three letters stay whole; a word meets itself either way"
    assert terms.hebrew_bare("москве") == "москве" and terms.hebrew_bare("bgit") == "bgit"
    mem = Memory()
    mem.ingest([{"id": "a", "speaker": "נועה", "text": "ניגנתי בגיטרה כל הערב"},
                {"id": "b", "speaker": "דוד", "text": "I cooked pasta tonight."}])
    for query in ("גיטרה", "הגיטרה", "על הגיטרה?"):
        assert mem.search(query, k=1) == ["a"], query
