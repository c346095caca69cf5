"""The reader: dates resolved against the session, replies trimmed to the rarest words, confidence."""

from datetime import date, datetime

import pytest

from graphmem.answer.reader import ABSTAIN, Hit, Reader, ReaderSettings
from graphmem.answer.sure import Ceiling, coverage, sure
from graphmem.text.dates import ANSWER_TYPES, answer_type, days_spoken_of, is_when, resolve_date, says_how_long, says_when
from graphmem.text.terms import Vocabulary

MAY8 = datetime(2023, 5, 8, 13, 56)


@pytest.mark.parametrize(
    "sentence, expected",
    [
        ("I went to a support group yesterday.", "7 May 2023"),
        ("I painted that last night", "7 May 2023"),
        ("We moved last week", "the week before 8 May 2023"),
        ("It happened last weekend", "the weekend before 8 May 2023"),
        ("I ran a charity race last Saturday", "the saturday before 8 May 2023"),
        ("We went camping last month", "April 2023"),
        ("I started painting last year", "2022"),
        ("I went back in October", "October 2022"),
        ("in March I got a dog", "March 2023"),
        ("I was there in 2019", "2019"),
        ("two days ago I fell", "6 May 2023"),
        ("I got it 3 years ago", "2020"),
        ("We're going next month", "June 2023"),
        ("The party was last summer", "summer 2022"),
        ("I am doing great", "8 May 2023"),
    ],
)
def test_relative_dates_resolve_against_the_session(sentence, expected):
    assert resolve_date(sentence, MAY8) == expected


def test_a_date_before_the_calendar_is_said_as_written():
    assert resolve_date("It formed 99999999 days ago", MAY8) == "99999999 days before 8 May 2023"


@pytest.mark.parametrize(
    "sentence, first, last",
    [
        ("I went bowling yesterday", "2023-05-07", "2023-05-07"),
        ("two days ago I fell", "2023-05-06", "2023-05-06"),
        ("We met 3 weeks ago", "2023-04-14", "2023-04-20"),
        ("last weekend we hiked", "2023-05-06", "2023-05-07"),
        ("Last Friday I ran a race", "2023-05-05", "2023-05-05"),
        ("I went back in October", "2022-10-01", "2022-10-31"),
        ("The show is next month", "2023-06-01", "2023-06-30"),
        ("I was there in 2019", "2019-01-01", "2019-12-31"),
        ("See you tomorrow!", "2023-05-09", "2023-05-09"),
    ],
)
def test_the_days_a_turn_speaks_of(sentence, first, last):
    assert days_spoken_of(sentence, MAY8) == [(date.fromisoformat(first), date.fromisoformat(last))]


def test_a_turn_may_speak_of_several_days_or_none():
    assert len(days_spoken_of("Yesterday I ran; last month I swam.", MAY8)) == 2
    assert days_spoken_of("I am doing great", MAY8) == []
    assert days_spoken_of("The party was last summer", MAY8) == []  # seasons have no agreed days
    assert days_spoken_of("Pyramids rose 5000 years ago, 99999999 days ago", MAY8) == []  # before year 1: no day


@pytest.mark.parametrize("sentence", [
    "I went bowling yesterday", "We met 3 weeks ago", "last weekend we hiked", "This Friday we hike.",
    "I went back in October", "I was there in 2019", "See you tonight!", "I am doing great", "last summer",
    "Pyramids rose 5000 years ago", "in May 2020", "on Fridays", "",
])
def test_a_text_speaks_of_a_day_only_when_it_says_when(sentence):
    """The live index reads a turn's days only when :func:`says_when` holds (one scan of the text
    for both): so every day read must come with ``says_when``, and "when" must be that test."""
    assert says_when(sentence) or days_spoken_of(sentence, MAY8) == []
    assert ANSWER_TYPES["when"] is says_when


def test_weekdays_gone_by_and_numbers_up_to_ten():
    friday = [(date(2023, 5, 5), date(2023, 5, 5))]  # MAY8 is a Monday
    assert days_spoken_of("This past Friday we hiked.", MAY8) == friday
    assert days_spoken_of("Last Friday we hiked.", MAY8) == friday
    assert days_spoken_of("This Friday we hike.", MAY8) == []  # may be ahead
    assert days_spoken_of("We met seven years ago.", MAY8) == [(date(2016, 1, 1), date(2016, 12, 31))]
    assert resolve_date("We met seven years ago.", MAY8) == "2016"
    assert says_when("We met ten days ago.") and says_how_long("It took ten days.")


def test_when_questions_are_read_off_the_wording():
    assert is_when("When did Caroline go to the LGBTQ support group?")
    assert is_when("In what year did Melanie start painting?")
    assert is_when("What year did John move?")
    assert not is_when("What did Caroline research?")


@pytest.mark.parametrize(
    "text", ["I went to a support group yesterday.", "We moved two years ago!", "See you tomorrow!",
             "The show is next month.", "Last Friday I ran a race.", "Back in May we met.", "I started in 2019."])
def test_a_turn_that_places_something_in_time(text):
    assert says_when(text)


def test_a_turn_that_does_not():
    assert not says_when("I love painting sunsets.")
    assert not says_when("May I join you?")  # the month needs its preposition
    assert not says_when("I have been waiting forever.")


def test_answer_types_read_off_the_question_in_either_language():
    assert answer_type("When did Caroline go to the LGBTQ support group?") == "when"
    assert answer_type("How long ago was Caroline's 18th birthday?") == "when"
    assert answer_type("How long have Mel and her husband been married?") == "how long"
    assert answer_type("For how long did John play?") == "how long"
    assert answer_type("How did Evan get into watercolor painting?") is None
    assert answer_type("打鼓 一个月 多久 学习") == "how long"
    assert answer_type("多久以前 去 巴黎") == "when"  # how long ago asks when
    assert answer_type("Caroline 什么时候 去 支持小组") == "when"
    assert answer_type("水彩 朋友 入门") is None


def test_a_turn_that_gives_a_duration():
    assert says_how_long("I've been playing for a month now.")
    assert says_how_long("We've been together for three years.")
    assert says_how_long("It took a couple of weeks.")
    assert not says_how_long("I love painting sunsets.")
    assert not says_how_long("Year after year it gets better.")


VOCAB = Vocabulary(
    [
        "I'm also trying out yoga to get a little extra strength and flexibility.",
        "I went to a LGBTQ support group yesterday and it was so powerful.",
        "My kids love the beach. We went camping in the mountains.",
        "Painting is my favourite hobby, sunsets especially.",
    ]
)


def test_reply_quotes_the_best_sentence_without_the_question_words():
    hits = [Hit("D1:1", "Hi Tim! Congrats! I'm also trying out yoga to get a little extra strength and flexibility.", MAY8)]
    reply = Reader(VOCAB).read("What is Tim trying out to improve his strength and flexibility?", hits)
    assert reply == "yoga get little extra"


def test_reply_keeps_the_rarest_span_words_in_order():
    hits = [Hit("D1:1", "Painting is my favourite hobby, sunsets especially.", MAY8)]
    reply = Reader(VOCAB, ReaderSettings(span=2)).read("What is Melanie's hobby?", hits)
    assert len(reply.split()) == 2
    assert reply.split() == [w for w in ["Painting", "favourite", "sunsets", "especially"] if w in reply.split()]


def test_when_question_reads_the_session_date():
    hits = [Hit("D1:3", "I went to a LGBTQ support group yesterday and it was so powerful.", MAY8)]
    assert Reader(VOCAB).read("When did Caroline go to the LGBTQ support group?", hits) == "7 May 2023"


def test_reply_states_a_second_part_only_within_the_band_and_gather_states_all():
    hits = [
        Hit("D1", "We went camping in the mountains.", MAY8),
        Hit("D2", "We went camping at the beach.", MAY8),
        Hit("D3", "Painting sunsets.", MAY8),
    ]
    q = "Where has Melanie gone camping?"
    reply = Reader(VOCAB, ReaderSettings(band=0.9, parts=2)).read(q, hits)
    assert reply.count(",") == 1  # two parts, the third hit covers nothing
    gathered = Reader(VOCAB, gather=True).read(q, hits)
    assert gathered.count(",") == 2
    one = Reader(VOCAB, ReaderSettings(parts=1)).read(q, hits)
    assert "," not in one


def test_no_evidence_is_no_information():
    assert Reader(VOCAB).read("What did Tim do?", []) == ABSTAIN


def test_sure_is_the_share_of_question_weight_the_turn_covers():
    q = "What is Tim trying out to improve his strength and flexibility?"
    full = sure(VOCAB, "yoga strength flexibility", "I'm also trying out yoga to get a little extra strength and flexibility.")
    assert full == pytest.approx(1.0)
    part = sure(VOCAB, q, "strength")
    assert 0 < part < 1
    assert sure(VOCAB, q, None) == 0.0
    assert sure(VOCAB, "the of and", "anything") == 0.0


def test_ceiling_is_the_best_coverage_any_turn_reaches():
    turns = ["I ran a charity race last week.", "I painted a sunrise.", "The race was for mental health."]
    vocab = Vocabulary(turns)
    question = "What did she paint at the charity race?"
    best = Ceiling(vocab, turns)(question)
    assert best == pytest.approx(max(coverage(vocab, question, t) for t in turns))
    assert 0 < best < 1
    assert Ceiling(vocab, turns)("zzz qqq") == 0.0  # nothing known: nothing to cover


def test_relative_sure_discounts_a_turn_by_how_far_it_falls_short_of_the_best():
    turns = ["I ran a charity race last week.", "I painted a sunrise.", "Charity race? I painted it after the race!"]
    vocab = Vocabulary(turns)
    question = "What did she paint after the charity race?"
    best = Ceiling(vocab, turns)(question)
    top = turns[2]
    assert coverage(vocab, question, top) == pytest.approx(best)
    assert sure(vocab, question, top, best) == pytest.approx(best)  # the best turn is not discounted
    weak = turns[1]
    c = coverage(vocab, question, weak)
    assert 0 < c < best
    assert sure(vocab, question, weak, best) == pytest.approx(c * c / best)
    assert sure(vocab, question, weak, best) < c
    assert sure(vocab, question, weak) == c  # without a ceiling: the specification's Sure
    assert sure(vocab, question, None, best) == 0.0


def test_an_unseen_question_term_counts_against_coverage_only_when_asked_to():
    turns = ["I bought new headphones last week.", "The headphones cost a lot.", "We walked in the park."]
    vocab = Vocabulary(turns)
    question = "What did my headphones and my iPad cost?"  # "ipad": no turn holds it
    turn = turns[1]
    assert coverage(vocab, question, turn) == pytest.approx(1.0)  # the specification's Sure: left out
    known = sum(vocab.weights(["headphon", "cost"]).values())
    counted = coverage(vocab, question, turn, unseen=True)
    assert counted == pytest.approx(known / (known + vocab.unseen))
    assert vocab.unseen == max(vocab.weight(t) for t in vocab.index)  # the largest weight there is
    assert sure(vocab, question, turn, unseen=True) == counted
    assert coverage(vocab, "What did the headphones cost?", turn, unseen=True) == pytest.approx(1.0)
