"""What holds, asked: a question mapped to a person's attribute, answered from the fact that holds as
of the day asked; nothing said after that day used; the earlier value; "the user" and "my"; US and UK
spellings (graphmem.memory.asked, and the as-of filter of every store's search)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

import pytest

from graphmem import Memory
from graphmem.domain import Fact
from graphmem.memory.asked import Asked, answer_of, asked, value_of
from graphmem.text.spelling import american
from graphmem.text.terms import analyse


@pytest.mark.parametrize("question, attribute", [
    ("What is Alice's job?", "occupation"),
    ("What does Omar do for a living?", "occupation"),
    ("what's Priya's profession these days", "occupation"),
    ("Which career did Tom pick?", "occupation"),
    ("What does Omar do?", "occupation"),
    ("Who does Bob work for now?", "employer"),
    ("Which company is Dana employed by?", "employer"),
    ("Where does Bob work?", "employer"),
    ("Where is Nadia based?", "residence"),
    ("Where does Nadia call home?", "residence"),
    ("Which city is Ken living in at the moment?", "residence"),
    ("Where do I reside?", "residence"),
    ("Who is Sam's girlfriend?", "partner"),
    ("Who is Felix seeing these days?", "partner"),
    ("Who is Jo married to?", "partner"),
    ("What car does Lena have?", "vehicle"),
    ("What do I drive now?", "vehicle"),
    ("What pets does Ivy have?", "pet"),
    ("Which instrument does Li play?", "instrument"),
    ("What is Maria majoring in?", "study"),
    ("What degree is Ahmed doing?", "study"),
    ("Is Ravi vegetarian?", "diet"),
    ("What languages does Ana speak?", "language"),
    ("What is my favorite color?", "favourite:color"),
    ("What's my favourite colour?", "favourite:color"),
    ("How many followers do I have?", "count:followers"),
    ("Who is Tariq employed by these days?", "employer"),
    ("Where's Noor working now?", "employer"),
    ("What is Hugo's work?", "occupation"),
    ("What did Sven do before?", "occupation"),
    ("Who was Lucia going out with last year?", "partner"),
    ("Who is Pablo with now?", "partner"),
    ("Does Omar keep a parrot?", "pet"),
    ("What does Lina ride to the office?", "vehicle"),
    ("Does Kai still play the saxophone?", "instrument"),
    ("What course is Mina taking?", "study"),
    ("What can Sara not eat?", "diet"),
    ("How much tea does Ivo drink a day?", "count:tea"),
    ("How often does Rhea swim?", "frequency:swim"),
])
def test_the_words_of_an_attribute_meet(question, attribute):
    assert asked(question).attribute == attribute


@pytest.mark.parametrize("question", [
    "When did Ann adopt a dog?",  # an event's date, not a state
    "How long did Ann live in Rome?",
    "What did Caroline research?",
    "Who did I speak to yesterday?",
    "What did Alice eat for breakfast?",
    "What game did Tom play?",
    "What role did Omar play in the show?",
    "Would Caroline pursue writing as a career option?",  # a guess
    "What career path has Caroline decided to pursue?",  # an intention
    "How does Calvin balance his job and personal life?",  # a manner
    "What kind of professional activities does Jolene take part in?",
    "Where did Ann take Rex and her parrot?",  # names a pet, asks a place
    "Who plays the guitar in Tom's band?",  # names an instrument, asks a person
    "Where did Lena park her car?",
    "What technique is Audrey using to discipline her dogs?",  # names dogs, asks a technique
    "Is Oscar Melanie's pet?",
    "What does Dave find satisfying about restoring old cars?",
    "What kind of game did John have a career-high in assists in?",
    "What role does nature play in Sam's mental well-being?",
])
def test_a_question_of_no_attribute_asks_none(question):
    assert asked(question) is None


@pytest.mark.parametrize("question, earlier, first", [
    ("Where did Nadia live before?", True, False),
    ("What car did I drive initially?", True, True),
    ("Who was Bob's previous employer?", True, False),
    ("What instrument did Li use to play?", True, False),
    ("Where did Nadia live originally?", True, True),
    ("How many people did Rui manage when he first joined the firm?", True, True),
    ("Where does Nadia live now?", False, False),
    ("Is Bob still working for Google?", False, False),
])
def test_the_earlier_value_is_asked_by_its_words(question, earlier, first):
    a = asked(question)
    assert (a.earlier, a.first) == (earlier, first)


def test_the_asker_and_the_user_are_the_person_asking():
    assert asked("Where does the user live?").asker
    assert asked("Where do I live?").asker
    assert asked("What's my job?").asker
    assert not asked("Where does Nadia live?").asker
    assert asked("Where does Nadia live?").names == ("nadia",)


def test_us_and_uk_spellings_meet_in_the_terms():
    for uk, us in [("colour", "color"), ("favourite", "favorite"), ("centre", "center"), ("theatre", "theater"),
                   ("organised", "organized"), ("grey", "gray")]:
        assert american(uk) == us
        assert analyse(f"my {uk}") == analyse(f"my {us}")
    assert american("hour") == "hour" and american("four") == "four"  # no suffix rule


@dataclass(frozen=True)
class _Attributed(Fact):
    """A fact that carries its attribute and value, as the facts read by attribute do."""

    attribute: str = ""
    value: str = ""


def _fact(attribute: str, value: str, since: int, until: int | None = None) -> Fact:
    return _Attributed("ann", "have", value, False, f"t{since}", datetime(2023, since, 1), datetime(2023, since, 1),
                       None if until is None else datetime(2023, until, 1), f"I have {value}.", attribute, value)


def test_a_value_held_and_the_earlier_one_from_the_history():
    history = [_fact("vehicle", "a Honda Civic", 1, 5), _fact("vehicle", "a Tesla", 5)]
    now = Asked("vehicle", ("ann",), False, False, False)
    before = Asked("vehicle", ("ann",), False, True, False)
    assert answer_of(history, now, None)[1] == "a Tesla"
    assert answer_of(history, before, None)[1] == "a Honda Civic"
    assert answer_of(history, now, datetime(2023, 3, 1))[1] == "a Honda Civic"  # as of a day before the change
    assert answer_of(history, before, datetime(2023, 3, 1)) is None  # nothing had ended then


def test_several_pets_held_are_one_reply_unless_one_is_asked():
    history = [_fact("pet", "a dog", 1), _fact("pet", "a cat", 3)]
    facts, reply = answer_of(history, asked("What pets does Ann have?"), None)
    assert reply == "a cat and a dog" and len(facts) == 2
    assert answer_of(history, asked("What pet does Ann have now?"), None)[1] == "a cat"  # the latest


def test_the_first_value_is_the_first_said_unless_its_sentence_tells_a_change():
    first = asked("What car did Ann drive at first?")
    assert answer_of([_fact("vehicle", "a Tesla", 5)], first, None)[1] == "a Tesla"  # the one value known
    changed = replace(_fact("vehicle", "a Tesla", 5), sentence="I traded the old one in, I drive a Tesla now.")
    assert answer_of([changed], first, None) is None  # it replaced a value never read
    assert answer_of([_fact("vehicle", "a Civic", 1), _fact("vehicle", "a Tesla", 5)], first, None)[1] == "a Civic"


def test_the_earlier_value_before_a_later_one_named():
    law = _fact("study", "law", 1)
    assert asked("What did Aditi study before medicine?").before == "medicine"
    assert answer_of([law], asked("What did Ann study before medicine?"), None)[1] == "law"  # medicine never read
    assert answer_of([law], asked("What did Ann study before law?"), None) is None  # law is the one named
    assert asked("What city did the user live in before moving?").before == ""  # an act, not a value
    assert asked("Where did Ann live before she moved?").before == ""  # a clause


@pytest.mark.parametrize("question, attribute, several", [
    ("What is the name of Hamid's dog?", "pet", False),
    ("What were Mei's cats called in June 2022?", "pet", True),
    ("What was Oliver's first pet?", "pet", False),
    ("What is Tariq's car now?", "vehicle", False),
    ("What was my guitar called?", "instrument", False),
])
def test_a_question_asking_what_a_persons_thing_is_asks_the_thing(question, attribute, several):
    a = asked(question)
    assert (a.attribute, a.several) == (attribute, several)
    assert asked("What did Melanie's dog do?") is None and asked("What technique is Audrey using on her dogs?") is None


def test_a_favourite_in_either_spelling_meets_the_other():
    history = [_fact("favourite:colour", "blue", 1), _fact("favourite:colour", "green", 4)]
    assert answer_of(history, asked("What is Ann's favorite color?"), None)[1] == "green"


MOVES = [
    {"id": "m1", "speaker": "Alice", "text": "I live in Paris and I work as a teacher.", "date": "2023-01-10"},
    {"id": "m2", "speaker": "Bob", "text": "Nice! I work at Google, for now.", "date": "2023-01-10"},
    {"id": "m3", "speaker": "Alice", "text": "I moved from Paris to Berlin last month.", "date": "2023-06-02"},
    {"id": "m4", "speaker": "Bob", "text": "Berlin is lovely in summer.", "date": "2023-06-02"},
]


def test_ask_answers_a_state_from_the_fact_that_holds():
    mem = Memory()
    mem.ingest(MOVES)
    job = mem.ask("What is Alice's job?")
    assert (job.reply, job.source, job.cited[0], job.measure) == ("teacher", "m1", "m1", "fact")
    assert job.confidence >= mem.floor and "teacher" in job.sentence
    home = mem.ask("Where is Alice based?")
    assert (home.reply, home.source) == ("Berlin", "m3")
    assert mem.ask("Where is Alice based?", asked_on="2023-03-01").reply == "Paris"
    assert mem.ask("Where did Alice live before?").reply == "Paris"
    assert mem.ask("Where did Alice live before?", asked_on="2023-03-01").reply != "Paris" or \
        mem.ask("Where did Alice live before?", asked_on="2023-03-01").measure != "fact"


def test_nothing_said_after_the_day_asked_is_searched_or_answered():
    mem = Memory()
    mem.ingest(MOVES + [{"id": "u", "speaker": "Alice", "text": "Berlin trains are late.", "conversation": "notes"}])
    assert "m3" in mem.search("Berlin", k=5)
    early = mem.search("Berlin", k=5, asked_on="2023-03-01")
    assert "m3" not in early and "m4" not in early
    assert early == ["u"]  # an undated turn has no day to be after: kept
    answer = mem.ask("Where did Alice move to Berlin?", asked_on="2023-03-01")
    assert not {"m3", "m4"} & set(answer.cited)
    assert [f.valid_to for f in mem.facts("Alice", as_of="2023-03-01")] == [None, None]  # no end said yet
    assert mem.search_conversations("Berlin", asked_on="2023-03-01") == ["notes"]


def test_a_turn_of_the_next_day_is_after_the_day_asked():
    """The day asked ends at 23:59:59.999999, and the next day's midnight is after it (a float of
    seconds since year 1 would round the one to the other)."""
    mem = Memory()
    mem.ingest([{"id": "a", "speaker": "Nate", "text": "I adopted a dog.", "date": "2023-05-12"},
                {"id": "b", "speaker": "Nate", "text": "A dog adopted me, I think.", "date": "2023-05-11T23:59:59"}])
    assert mem.search("adopted dog", asked_on="2023-05-11") == ["b"]
    assert mem.search("adopted dog", asked_on="2023-05-12") == ["a", "b"]


def test_the_user_of_a_chat_with_an_assistant_is_the_one_asking():
    mem = Memory()
    mem.ingest([
        {"id": "u1", "speaker": "Nadia", "text": "I live in Lisbon at the moment.", "date": "2023-01-05"},
        {"id": "a1", "speaker": "assistant", "text": "Lisbon is a lovely place to live!", "date": "2023-01-05"},
        {"id": "u2", "speaker": "Nadia", "text": "Big news: we moved to Porto last week.", "date": "2023-05-05"},
        {"id": "a2", "speaker": "assistant", "text": "Congratulations on the move!", "date": "2023-05-05"},
    ])
    for question in ("Where does the user live?", "Where do I live?", "Where's my home now?"):
        assert mem.ask(question).reply == "Porto", question
    assert mem.ask("Where does the user live?", asked_on="2023-02-01").reply == "Lisbon"


def test_a_reply_of_several_values_cites_each_values_turn_whatever_k():
    """With k=1 the reply named two pets and cited the turn of one."""
    mem = Memory()
    mem.ingest([{"id": "a", "speaker": "Ann", "text": "We adopted a dog called Rex.", "date": "2023-01-01"},
                {"id": "b", "speaker": "Bob", "text": "Lovely!", "date": "2023-01-01"},
                {"id": "c", "speaker": "Ann", "text": "And now we have a cat called Tom too.", "date": "2023-02-01"}])
    answer = mem.ask("What pets does Ann have?", k=1)
    assert answer.measure in ("fact", "said"), answer  # "said": the turns told the second pet after the first
    named = [i for i, name in (("a", "Rex"), ("c", "Tom")) if name in answer.reply]
    assert len(named) == 2 and set(named) <= set(answer.cited), answer


def test_a_state_asked_in_a_past_month_is_what_held_then():
    mem = Memory()
    mem.ingest([{"id": "p1", "speaker": "Priya", "text": "I live in Austin now.", "date": "2022-05-11"},
                {"id": "p2", "speaker": "Sam", "text": "Austin is hot in summer.", "date": "2022-05-11"},
                {"id": "p3", "speaker": "Priya", "text": "I moved to Portland last week.", "date": "2022-12-03"}])
    assert mem.ask("Where does Priya live?", asked_on="2023-02-01").reply == "Portland"
    then = mem.ask("Where did Priya live in August 2022?", asked_on="2023-02-01")
    assert (then.reply, then.measure, then.source) == ("Austin", "fact", "p1")
    assert mem.ask("Where did Priya live in December 2022?", asked_on="2023-02-01").reply == "Portland"


def test_a_value_is_the_whole_name_of_the_thing():
    bass = replace(_fact("instrument", "double", 2), object="learn the double bass", sentence="I'm learning the double bass now.")
    guitar = replace(_fact("instrument", "guitar", 3), object="take up the bass guitar instead",
                     sentence="Took up the bass guitar instead.")
    ravi = replace(_fact("partner", "Ravi", 4), object="see someone called Ravi", sentence="I'm seeing someone called Ravi.")
    assert [value_of(f, f.value) for f in (bass, guitar, ravi)] == ["double bass", "bass guitar", "Ravi"]
    assert answer_of([guitar], asked("What did Ann play before the bass?"), None) is None  # the bass is the value named
