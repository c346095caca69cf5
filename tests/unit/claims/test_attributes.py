"""The attribute rules, each on wordings of its own (not only the issue's sentences), read the way a
memory reads them: one speaker's notes, ingested turn by turn, and the facts that hold after."""

from __future__ import annotations

import pytest

from graphmem import Memory
from graphmem.claims.clauses import asked, trim
from graphmem.claims.attributes import said_of, small_talk
from graphmem.claims.clauses import Clause
from graphmem.domain import Claim


def _holds(*texts: str, speaker: str = "Nadia") -> set[tuple[str, str]]:
    """(attribute, value) of what holds once one speaker has said ``texts``, a day apart."""
    mem = Memory()
    mem.ingest([{"id": f"t{i}", "speaker": speaker, "text": t, "date": f"2023-03-{i + 1:02d}"}
                for i, t in enumerate(texts)])
    return {(f.attribute, f.value) for f in mem.facts(speaker) if not f.negated}


def _of(holds: set[tuple[str, str]], attribute: str) -> set[str]:
    return {v for a, v in holds if a == attribute}


@pytest.mark.parametrize("before, after, attribute, old, new", [
    ("I live in Paris.", "Big news: we moved to Porto last week, so Porto is home now.", "residence", "paris", "porto"),
    ("We're living in Leeds.", "We relocated to Bristol in March.", "residence", "leeds", "bristol"),
    ("I live in Oslo.", "I'm based in Bergen these days.", "residence", "oslo", "bergen"),
    ("I work at Google.", "I left Google and joined Microsoft.", "employer", "google", "microsoft"),
    ("I work for Deloitte.", "I got a job at Spotify as a data analyst.", "employer", "deloitte", "spotify"),
    ("I work as a chef.", "I became a pilot.", "occupation", "chef", "pilot"),
    ("I'm a teacher at a primary school.", "Now I work as a librarian.", "occupation", "teacher", "librarian"),
    ("I drive an old Honda Civic.", "I finally sold the Civic and now I drive a Tesla.", "vehicle", "old honda civic",
     "tesla"),
    ("I'm dating Felix.", "Felix and I broke up; I'm seeing someone called Ravi now.", "partner", "felix", "ravi"),
    ("My boyfriend is called Tom.", "I married Sam last summer.", "partner", "tom", "sam"),
    ("I play the violin in a community orchestra.", "I gave up the violin and switched to the cello this spring.",
     "instrument", "violin", "cello"),
    ("I play the piano.", "I switched from the piano to the drums.", "instrument", "piano", "drum"),
    ("I'm studying law at UCL.", "I switched my major to biology.", "study", "law", "biology"),
    ("I'm vegetarian.", "I went vegan in January.", "diet", "vegetarian", "vegan"),
    ("I've been vegetarian for ten years.", "Confession: I eat meat again.", "diet", "vegetarian", "eats meat"),
    ("I ride a Vespa to work.", "Traded the Vespa in for a proper motorbike, a Triumph Bonneville.", "vehicle", "vespa",
     "triumph bonneville"),
    ("I have been dating Connor for years.", "Connor and I called it off. I'm with Harriet now, very happy.",
     "partner", "connor", "harriet"),
    ("I'm still at Google.", "I work for Stripe now.", "employer", "google", "stripe"),
    ("My favourite colour is blue.", "My favorite color is green now.", "favourite:colour", "blue", "green"),
    ("I have two cats.", "We now have three cats.", "count:cat", "2", "3"),
    ("I go to the gym twice a week.", "These days I go to the gym every day.", "frequency:gym", "twice a week",
     "every day"),
    ("I'm studying law.", "I switched from law to medicine.", "study", "law", "medicine"),
    ("I'm pescatarian.", "Gave up on fish, I'm vegan now.", "diet", "pescatarian", "vegan"),
    ("I live in Leeds.", "We packed up and headed south. Bristol is where we live now.", "residence", "leeds", "bristol"),
    ("Gym three times a week.", "Upped it to five times a week.", "frequency:gym", "three times a week",
     "five times a week"),
])
def test_a_later_value_said_in_other_words_ends_the_earlier(before, after, attribute, old, new):
    assert old in _of(_holds(before), attribute)
    now = _of(_holds(before, after), attribute)
    assert now == {new}, now


@pytest.mark.parametrize("text, attribute, value", [
    ("I live in Paris and my favourite colour is blue.", "residence", "paris"),
    ("I live in Paris and my favourite colour is blue.", "favourite:colour", "blue"),
    ("I moved from Paris to Berlin last month.", "residence", "berlin"),
    ("I'm a nurse at St Mary's hospital.", "occupation", "nurse"),
    ("I'm a nurse at St Mary's hospital.", "employer", "st mary's"),
    ("We adopted a puppy named Rex.", "pet", "rex"),
    ("I speak French and Spanish.", "language", "spanish"),
    ("I don't eat meat anymore.", "diet", "no meat"),
    ("I run three times a week.", "frequency:run", "three times a week"),
    ("I have 500 followers on Instagram.", "count:follower", "500"),
])
def test_one_fact_per_clause_its_value_trimmed(text, attribute, value):
    assert value in _of(_holds(text), attribute)


def test_many_valued_attributes_add_until_a_turn_ends_one():
    said = ["We adopted a puppy named Rex.", "Our cat Luna is so lazy.", "I speak French.", "I'm learning to speak "
            "Italian too.", "Sadly our cat Luna passed away last month."]
    now = _holds(*said)
    assert _of(now, "pet") == {"rex"} and _of(_holds(*said[:2]), "pet") == {"rex", "luna"}
    assert "french" in _of(now, "language")


def test_a_negation_ends_the_fact_it_denies():
    assert _of(_holds("I work at Google.", "I no longer work at Google."), "employer") == set()
    assert _of(_holds("I'm dating Tom.", "I'm not with Tom anymore."), "partner") == set()
    assert _of(_holds("I play the violin.", "I don't play the violin anymore."), "instrument") == set()


def test_an_ending_with_nothing_named_ends_every_value():
    assert _of(_holds("I'm dating Felix.", "We broke up last week."), "partner") == set()
    assert _of(_holds("I work as a chef at Nando's.", "I quit my job."), "occupation") == set()
    assert _of(_holds("I drive a Tesla.", "I sold my car."), "vehicle") == set()


@pytest.mark.parametrize("text", ["Good to see you!", "Big news!", "So excited!", "Thanks so much!",
                                  "Great to hear from you.", "I'm good, you?", "Nice to meet you, Jo."])
def test_no_greeting_or_small_talk_becomes_a_fact(text):
    assert _holds(text) == set()


@pytest.mark.parametrize("obj, trimmed", [
    ("from Paris to Berlin last month", "from Paris to Berlin"),
    ("to Porto last week, so Porto is home now", "to Porto"),
    ("with Harriet now, very happy", "with Harriet"),
    ("a motorbike, a Triumph Bonneville", "a motorbike, a Triumph Bonneville"),
    ("Japanese now", "Japanese"),
    ("at Google since 2019", "at Google"),
    ("the cello this spring", "the cello"),
    ("a dog two weeks ago", "a dog"),
    ("in Lisbon these days", "in Lisbon"),
    ("tennis, which I love", "tennis"),
])
def test_time_words_and_trailing_clauses_are_trimmed(obj, trimmed):
    assert trim(obj) == trimmed


def test_each_fact_names_its_turn_and_clause():
    mem = Memory()
    mem.ingest([{"id": "n1", "speaker": "Ann", "text": "I live in Paris and my favourite colour is blue.",
                 "date": "2023-01-01"}])
    facts = {f.attribute: f for f in mem.facts("Ann")}
    assert facts["residence"].turn_id == facts["favourite:colour"].turn_id == "n1"
    assert facts["residence"].object == "in Paris" and facts["favourite:colour"].object == "my favourite colour: blue"


def test_small_talk_is_told_from_a_statement():
    assert small_talk(Clause("", "be", False, "Good to see you"))
    assert not small_talk(Clause("", "be", False, "a nurse"))


def test_an_unread_clause_keeps_its_predicate():
    c = Claim("ann", "bake", "sourdough every Sunday", False, "I bake sourdough every Sunday.", "t", None)
    assert [(s.attribute, s.value) for s in said_of(c)] == [("frequency:sourdough", "every sunday")]
    c = Claim("ann", "paint", "landscapes", False, "I paint landscapes.", "t", None)
    assert [(s.attribute, s.value) for s in said_of(c)] == [("other:paint", "landscapes")]


@pytest.mark.parametrize("text", [
    "It really mattered.", "They're beautiful!", "Take a look at the photo.", "I'll keep you updated.",
    "We can plan a kayaking trip together.", "I'm working on it.", "I visited her old house.", "I had a great time.",
    "I'm so excited to explore the nature!", "I think so too.", "Let me know what you think.",
    "Since I was 17 or so.", "When I face challenges on the court, I try to reflect.", "It's like having a dose of positivity every day.",
    "We have a strong bond.", "I'm staying positive and looking ahead.", "We had a good laugh!",
    "I haven't talked to him in a few days.", "I'm gonna stay in Galway.", "Being a role model is so fulfilling.",
])
def test_what_a_reader_would_not_take_for_a_fact_gives_none(text):
    """Not the person's plain statement: another subject, an imperative, a plan, a pointing object, a
    passing feeling, a verb of talk."""
    assert _holds(text) == set()


@pytest.mark.parametrize("text, attribute", [
    ("I started a blog on car mods.", "other:start"), ("I volunteer at the homeless shelter.", "other:volunteer"),
    ("We roasted marshmallows around the campfire.", "other:roast"),
    ("I have a golden retriever called Biscuit.", "pet"), ("Saxophone practice went well.", "instrument"),
    ("My architecture course has me pulling all-nighters.", "study"), ("I rent a little place in Austin.", "residence"),
])
def test_a_plain_statement_of_ones_own_is_an_open_ended_fact(text, attribute):
    assert attribute in {a for a, _ in _holds(text)}


@pytest.mark.parametrize("sentence, parts", [
    ("i'm learning piano, 3 months in. how do I get better?", [("i'm learning piano, 3 months in.", False),
                                                               ("how do I get better?", True)]),
    ("my favourite colour is blue, can you suggest a palette?", [("my favourite colour is blue", False),
                                                                 ("can you suggest a palette?", True)]),
    ("That's awesome, what did you paint?", [("That's awesome, what did you paint?", True)]),  # as written: one question
    ("I live in Paris.", [("I live in Paris.", False)]),
])
def test_a_chat_question_gives_back_the_statement_glued_before_it(sentence, parts):
    assert asked(sentence) == parts


def test_facts_from_a_user_who_asks_as_they_tell():
    said = _holds("my favourite colour is blue, can you suggest a palette for my bedroom?",
                  "honestly I've gone off blue. green is my favourite colour now. redo the palette?", speaker="user")
    assert _of(said, "favourite:colour") == {"green"}


def test_a_swap_gives_the_new_value_the_attribute_the_old_was_of_and_its_own_words():
    mem = Memory()
    mem.ingest([{"id": "t1", "speaker": "Jo", "text": "I drive a Ford Fiesta.", "date": "2023-01-01"},
                {"id": "t2", "speaker": "Jo", "text": "I swapped the Fiesta for a VW Transporter.", "date": "2023-02-01"}])
    now = [(f.attribute, f.value, f.object) for f in mem.facts("Jo")]
    assert now == [("vehicle", "vw transporter", "for a VW Transporter")], now


def test_pets_named_in_a_list_each_hold_and_end_alone():
    held = _holds("We have two cats, Mochi and Bean.", "Our cat Mochi died last week.")
    assert _of(held, "pet") == {"bean"}


def test_a_clause_under_another_gives_only_the_main_clause():
    assert _holds("I've been into dancing since I was a kid.") == {("other:be", "into dancing")}
