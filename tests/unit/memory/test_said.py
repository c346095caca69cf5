"""A value of an asked attribute read off a person's own turns when no fact holds one (graphmem.memory.said)."""

from __future__ import annotations

from datetime import datetime

from graphmem import Memory
from graphmem.domain import Turn
from graphmem.memory.said import said_value


def _turn(i: int, speaker: str, text: str, month: int) -> Turn:
    return Turn(f"t{i}", speaker, text, datetime(2022, month, 1))


SAX = [_turn(1, "Marcus", "Saxophone practice went well, the neighbours even clapped.", 4),
       _turn(2, "Ayesha", "I play the flute, our band needs a sax!", 4),
       _turn(3, "Marcus", "Sold my sax, my lungs aren't up to it anymore. Took up the bass guitar instead.", 12)]


def test_the_latest_value_said_holds_and_an_ended_one_does_not():
    assert said_value("instrument", "marcus", SAX, None, False, False)[1].lower() == "guitar"
    assert said_value("instrument", "marcus", SAX, datetime(2022, 8, 1), False, False)[1].lower() == "saxophone"
    assert said_value("instrument", "marcus", SAX, None, True, False)[1].lower() == "saxophone"  # the earlier value
    assert said_value("instrument", "ayesha", SAX, None, False, False)[1].lower() == "flute"  # "needs a sax" is hers too
    quit_ = [_turn(1, "Nils", "I drum in a punk band.", 5), _turn(2, "Nils", "I've hung up the sticks, no more drumming.", 9)]
    assert said_value("instrument", "nils", quit_, datetime(2022, 6, 1), False, False)[1].lower() == "drum"
    assert said_value("instrument", "nils", quit_, None, False, False) is None  # ended, nothing said since


def test_a_comparison_or_another_persons_turn_is_no_value_of_theirs():
    diet = [_turn(1, "Rashid", "Keto week two: I'd sell my soul for a croissant.", 1),
            _turn(2, "Nia", "I'm pescatarian and even I feel your pain.", 1),
            _turn(3, "Nia", "Fasting's easier than keto I reckon.", 6)]
    assert said_value("diet", "nia", diet, None, False, False)[1].lower() == "pescatarian"
    assert said_value("diet", "rashid", diet, None, False, True)[1].lower() == "keto"  # the one value said is the first
    assert said_value("residence", "rashid", diet, None, False, False) is None  # no word list for a place


def test_ask_reads_a_value_off_the_turns_when_no_fact_holds_one():
    mem = Memory()
    sax = [_turn(1, "Marcus", "Two hours of saxophone tonight, the neighbours even clapped.", 4)] + SAX[1:]
    mem.ingest([{"id": t.id, "speaker": t.speaker, "text": t.text, "date": t.date.date().isoformat()} for t in sax])
    then = mem.ask("What instrument did Marcus play in August 2022?", asked_on="2023-01-01")
    assert (then.reply, then.measure, then.source) == ("saxophone", "said", "t1")  # the claims read no fact of t1
    assert mem.ask("What instrument does Marcus play?", asked_on="2023-01-01").reply == "bass guitar"


def test_a_value_said_answers_only_a_question_asking_the_attribute_itself():
    from graphmem.memory.said import asks_said
    for q in ("What is Omar's job?", "What does Omar do for a living?", "What was the user's profession in June 2023?",
              "What career did I have before?", "What does Amara do now?"):
        assert asks_said("occupation", q), q
    for q in ("What made John leave his IT job?", "What happened to John's job in August 2023?",
              "What career milestone did John achieve recently?"):
        assert not asks_said("occupation", q), q
    assert asks_said("instrument", "Which instrument does Leo play?") and asks_said("diet", "What diet is Rashid on?")
    assert not asks_said("diet", "What type of diet do Joanna's turtles have?")


def test_a_value_said_before_the_facts_is_the_first_over_a_later_fact():
    """The mirror of a newer value said beating an older fact: asked the first value, a value the turns
    name on a day before the fact that answers was said wins (the claims read no fact of t1)."""
    mem = Memory()
    turns = [_turn(1, "Ines", "Two hours of cello tonight, my fingers are raw.", 3),
             _turn(2, "Ines", "I play the trumpet in a brass band.", 9)]
    mem.ingest([{"id": t.id, "speaker": t.speaker, "text": t.text, "date": t.date.date().isoformat()} for t in turns])
    first = mem.ask("What was the first instrument Ines played?", asked_on="2023-01-01")
    assert (first.reply, first.measure, first.source) == ("cello", "said", "t1")
    assert mem.ask("What instrument does Ines play?", asked_on="2023-01-01").reply == "trumpet"  # now: the fact


def test_a_value_ended_as_the_subject_of_its_sentence_holds_no_more():
    from graphmem.memory.values import subject_ends
    assert subject_ends("pet", "So sad. Mo passed away in his sleep.", "Mo")
    assert subject_ends("partner", "Felix moved out last month.", "Felix")
    assert subject_ends("partner", "We split in May.", "Felix")  # no name: whoever it was
    assert not subject_ends("pet", "Mo passed the exam.", "Mo")
    assert not subject_ends("pet", "Jo's dog died.", "Mo")
    assert not subject_ends("pet", "Felix moved out.", "Felix")  # a leaving ends a partner, not a pet
    pets = [_turn(1, "Ines", "I have a cat called Mo.", 3), _turn(2, "Ines", "Mo didn't make it.", 6)]
    assert said_value("pet", "ines", pets, datetime(2022, 4, 1), False, False)[1].endswith("Mo")  # "cat called Mo"
    assert said_value("pet", "ines", pets, None, False, False) is None
    tank = [pets[0], _turn(2, "Ines", "Mo moved to a bigger tank.", 6)]
    assert said_value("pet", "ines", tank, None, False, False)[1].endswith("Mo")
