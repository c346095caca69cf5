"""Facts read by the meaning of the value (graphmem.claims.values), on wordings with no verb the clause
rules read: one speaker's notes and user/assistant chats, ingested turn by turn, and what holds after."""

from __future__ import annotations

import pytest

from graphmem import Memory
from graphmem.claims.clauses import asked


def _holds(*texts: str, speaker: str = "Ines") -> set[tuple[str, str]]:
    """(attribute, value) of what holds once ``speaker`` has said ``texts`` a day apart; a text starting
    "A:" is an assistant's (then the speaker is ``user``)."""
    mem = Memory()
    mem.ingest([{"id": f"t{i}", "speaker": "assistant" if t.startswith("A:") else speaker, "text": t.removeprefix("A:"),
                 "date": f"2023-03-{i + 1:02d}"} for i, t in enumerate(texts)])
    return {(f.attribute, f.value) for f in mem.facts(speaker) if not f.negated}


def _of(holds: set[tuple[str, str]], attribute: str) -> set[str]:
    return {v for a, v in holds if a == attribute}


@pytest.mark.parametrize("texts, attribute, now", [
    (("Boxes everywhere in the Bristol flat.", "The terrace here in Leeds is freezing."), "residence", {"leeds"}),
    (("Our flat in Lyon is tiny.", "Keys go back to the landlord tomorrow, then I'm off to Porto for the new contract."),
     "residence", {"porto"}),
    (("Still in Krakow.", "And now Gdansk. Sea air, finally."), "residence", {"gdansk"}),
    (("Life in Toronto is grand.", "Left Toronto for Vancouver in March."), "residence", {"vancouver"}),
    (("Still at Siemens.", "And now Bosch! Signed on Monday."), "employer", {"bosch"}),
    (("Another Monday at Unilever.", "I took the Danone offer, first day was Monday."), "employer", {"danone"}),
    (("Payday at Barclays.", "My last day at Barclays was today."), "employer", set()),
    (("I'm a receptionist.", "I took the physiotherapist training offer in the end."), "occupation", {"physiotherapist"}),
    (("I work as a sous chef.", "Head chef now, still at Marlow's."), "occupation", {"head chef"}),
    (("My old Golf still starts every morning.", "Traded it in for a Kia EV6 last weekend."), "vehicle", {"kia ev6"}),
    (("I drive a Fiesta.", "Part-exchanged the Fiesta for a Toyota Yaris today."), "vehicle", {"toyota yaris"}),
    (("I play the fiddle in a pub session.", "Swapped the fiddle for a cello."), "instrument", {"cello"}),
    (("Chemistry lectures at 9am should be illegal.", "Dropped chemistry and transferred onto pharmacology."),
     "study", {"pharmacology"}),
    (("Law school is kicking my butt.", "I'm doing medicine now instead of law."), "study", {"medicine"}),
    (("Vegan for a year now.", "Going to eat fish again - pescatarian it is."), "diet", {"pescatarian"}),
    (("My favourite band is Blur.", "Fontaines D.C. have taken the top spot now."), "favourite:band", {"fontaines d.c"}),
    (("I've got two grandchildren.", "Another one arrived, so that's three grandchildren now."), "count:grandchildren",
     {"3"}),
    (("Our rabbit Biscuit chewed the charger.", "We said goodbye to Biscuit. Now there's a kitten, Pepper."), "pet",
     {"pepper"}),
    (("Ten years married to Sabine today.", "Sabine and I are separating.", "Third date with Anja tonight."), "partner",
     {"anja"}),
])
def test_a_value_said_by_its_meaning_starts_or_ends(texts, attribute, now):
    assert _of(_holds(*texts), attribute) == now


def test_with_a_company_and_words_of_work_is_an_employer_not_a_partner():
    got = _holds("Been at Shopify for four years.", "Big change: I'm with Stripe now, started Monday.")
    assert _of(got, "employer") == {"stripe"} and not _of(got, "partner")


def test_a_chat_users_statement_glued_to_a_question_is_read_and_an_assistants_suggestion_is_not():
    got = _holds("I'm based in Toronto and looking for weekend hikes nearby, ideas?",
                 "A:You might enjoy living in Boulder. Since you drive a Prius, try the mountain roads.",
                 "We moved to Vancouver in the summer - what's the best time of day to run?", speaker="user")
    assert _of(got, "residence") == {"vancouver"} and not _of(got, "vehicle")
    assert asked("I'm in Glasgow and it rains constantly - best waterproof jacket?", chat=True)[0] == (
        "I'm in Glasgow and it rains constantly", False)
    assert asked("I'm in Glasgow and it rains constantly - best waterproof jacket?")[-1][1]  # not a chat: one question


def test_a_chat_users_shorthand_and_what_they_used_to_do():
    got = _holds("context: im a nurse, live in bristol with my partner. what pension should i choose?",
                 "I used to play the violin but now I play the cello. Any pieces for beginners?", speaker="user")
    assert _of(got, "occupation") == {"nurse"} and _of(got, "residence") == {"bristol"}
    assert _of(got, "instrument") == {"cello"}  # the violin is history, not what holds


def test_a_lower_case_chat_leaving_one_place_for_an_offer_from_another():
    mem = Memory()
    mem.ingest([{"id": "t1", "speaker": "user", "text": "ok plot twist, im leaving ikea. offer from DHL came thru, start in may",
                 "date": "2023-04-22"}])
    holding = [f"{f.predicate} {f.object}".lower() for f in mem.facts("user") if not f.negated]
    assert any("dhl" in t for t in holding) and not any("ikea" in t for t in holding), holding


@pytest.mark.parametrize("text", [
    "I went to a music festival in Boston last weekend, so many cool bands.",
    "I've been supporting some young musicians from a music program.",
    "I passed the adoption agency interviews last Friday!",
    "My sister's flat in Leeds is gorgeous.",
    "Off to Paris for the weekend, can't wait!",
    "I'm not vegan anymore.",
    "Just take a look how happy my dogs are at the park.",
    "My car is the best and I'm proud of it.",
    "I've always wanted to learn Spanish.",
    "I had a conversation with someone named David at the event.",
])
def test_no_value_where_the_cue_is_someone_elses_a_trip_or_a_negation(text):
    got = _holds(text)
    assert not {a for a, _ in got} & {"residence", "study", "pet", "vehicle", "diet", "partner", "language", "*"}, got


_MO = "I have a cat called Mo."
_FELIX = "Ten years married to Felix today."


@pytest.mark.parametrize("before, text, attribute", [
    (_MO, "Mo passed away in his sleep.", "pet"),
    (_MO, "Mo passed on Tuesday.", "pet"),
    (_MO, "Mo didn't make it.", "pet"),
    (_MO, "Sadly Mo was put down on Friday.", "pet"),
    (_MO, "Mo is gone.", "pet"),
    (_MO, "Mo died last week.", "pet"),
    (_MO, "We lost Mo on Tuesday.", "pet"),
    (_FELIX, "Felix moved out.", "partner"),
    (_FELIX, "Felix left me for someone else.", "partner"),
    (_FELIX, "Felix and I split.", "partner"),
    (_FELIX, "We split in May, Felix and me.", "partner"),
    ("I'm dating Ravi, we met in June.", "Ravi and I are done.", "partner"),
])
def test_a_pet_or_partner_said_as_the_subject_of_an_ending_ends(before, text, attribute):
    assert _of(_holds(before), attribute) and not _of(_holds(before, text), attribute)


@pytest.mark.parametrize("before, text, attribute", [
    (_MO, "Jo's dog died.", "pet"),  # someone else's
    (_MO, "Mo passed the vet check.", "pet"),  # passed something
    (_MO, "Mo moved to a bigger tank.", "pet"),  # moved somewhere
    (_MO, "Mo left me a dead mouse.", "pet"),  # left something
    (_MO, "Mo didn't make it to the vet.", "pet"),
    (_MO, "Mo almost died.", "pet"),
    (_MO, "Mo died? Oh no.", "pet"),  # a question
    (_FELIX, "Felix moved to Leeds for work.", "partner"),
    (_FELIX, "Felix left for work early.", "partner"),
    (_FELIX, "Jo's husband moved out.", "partner"),
    (_FELIX, "We split the bill.", "partner"),
])
def test_no_ending_where_the_subject_did_something_else_or_is_someone_elses(before, text, attribute):
    assert _of(_holds(before, text), attribute) == _of(_holds(before), attribute) != set()


def test_only_the_speaker_ends_their_own_pet_and_an_end_as_of_before_it_is_no_end():
    mem = Memory()
    mem.ingest([{"id": "t0", "speaker": "Ines", "text": _MO, "date": "2023-03-01"},
                {"id": "t1", "speaker": "Bob", "text": "Mo died last week.", "date": "2023-03-02"},
                {"id": "t2", "speaker": "Ines", "text": "Nice.", "date": "2023-03-03"}])
    assert {f.value for f in mem.facts("Ines") if f.attribute == "pet"} == {"mo"}  # Bob's Mo, not Ines's turn
    mem.ingest([{"id": "t3", "speaker": "Ines", "text": "Mo passed away in his sleep.", "date": "2023-03-05"}])
    assert not {f.value for f in mem.facts("Ines") if f.attribute == "pet"}
    assert {f.value for f in mem.facts("Ines", as_of="2023-03-04") if f.attribute == "pet"} == {"mo"}
    assert mem.ask("What pet does Ines have?").measure != "fact"
