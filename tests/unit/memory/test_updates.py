"""Preferring what holds (graphmem.memory.updates): a later saying of what a question asks, by the
same person, comes before the earlier one it replaced; the day asked decides what is later."""

from __future__ import annotations

from graphmem import Memory
from graphmem.index.options import MemoryOptions

FOLLOWERS = [
    {"id": "old", "speaker": "user", "text": "I have 500 followers on Instagram and I post every day.",
     "date": "2023-05-01", "conversation": "s1"},
    {"id": "reply", "speaker": "assistant", "text": "Great work on Instagram! Followers grow with posts.",
     "date": "2023-05-01", "conversation": "s1"},
    {"id": "new", "speaker": "user", "text": "I just checked: 600 followers on Instagram now.",
     "date": "2023-06-01", "conversation": "s2"},
    {"id": "cat", "speaker": "user", "text": "My cat sleeps all day.", "date": "2023-06-02", "conversation": "s2"},
]
QUESTION = "How many followers do I have on Instagram?"


def _memory(records=FOLLOWERS, **options) -> Memory:
    mem = Memory(options=MemoryOptions(**options))
    mem.ingest(records)
    return mem


def test_the_later_saying_comes_first_and_the_earlier_follows():
    assert _memory(updates=False).search(QUESTION, k=2)[0] == "old"  # the store's order
    found = _memory().search(QUESTION, k=3)
    assert found[0] == "new" and found.index("old") < found.index("reply")


def test_what_was_said_after_the_day_asked_replaces_nothing():
    assert _memory().search(QUESTION, k=1, asked_on="2023-05-15") == ["old"]
    assert _memory().search(QUESTION, k=1, asked_on="2023-06-01") == ["new"]


def test_another_speakers_later_turn_replaces_nothing():
    records = [{**r, "speaker": "friend"} if r["id"] == "new" else r for r in FOLLOWERS]
    assert _memory(records).search(QUESTION, k=1) == _memory(records, updates=False).search(QUESTION, k=1)


def test_a_later_turn_that_covers_too_little_of_the_question_replaces_nothing():
    records = [{**r, "text": "I post on Instagram a lot."} if r["id"] == "new" else r for r in FOLLOWERS]
    assert _memory(records).search(QUESTION, k=1) == ["old"]


def test_a_question_about_the_earlier_state_is_left_as_found_unless_it_asks_for_now_too():
    assert _memory().search("How many followers did I initially have on Instagram?", k=1) == ["old"]
    assert _memory().search("How many followers did I have on Instagram before, and now?", k=1) == ["new"]


def test_the_confidence_reads_the_turns_a_turn_replaced():
    """A turn put first by the kinds' rule may not hold the question's words; the answer's
    confidence is that of the turn it replaced, so the memory does not fall silent."""
    move = [{"id": "m1", "speaker": "Alice", "text": "I live in Paris.", "date": "2023-01-10", "conversation": "c"},
            {"id": "m2", "speaker": "Bob", "text": "Lovely, Alice!", "date": "2023-01-10", "conversation": "c"},
            {"id": "m3", "speaker": "Alice", "text": "I moved from Paris to Berlin.", "date": "2023-06-02",
             "conversation": "c"}]
    mem, plain = _memory(move), _memory(move, updates=False)
    found, replaced, _ = mem._found("Where does Alice live?", 5, None)  # the turns read when no fact answers
    answer, before = mem._answer("Where does Alice live?", found, replaced), plain.ask("Where does Alice live?")
    assert answer.cited[0] == "m3" and before.cited[0] == "m1"
    assert answer.confidence == before.confidence > 0
    held = mem.ask("Where does Alice live?")  # a fact holds: its value, its turn first (graphmem.memory.asked)
    assert (held.reply, held.cited[0], held.measure) == ("Berlin", "m3", "fact")


BIRDS = [{"id": "old", "speaker": "user", "date": "2023-05-24", "conversation": "s1",
          "text": "I keep track of the species of birds I have seen in my local park: 27 species so far."}]
BIRDS += [{"id": f"tip{i}", "speaker": "assistant", "text": text, "date": "2023-05-24", "conversation": "s1"}
          for i, text in enumerate(["Many species of birds can be seen in a local park.",
                                    "Which birds have you seen in the park?", "Local park birds: species vary by season.",
                                    "Seen any rare species of birds lately?", "A park is a fine place for birds and birders."])]
BIRDS += [{"id": "new", "speaker": "user", "date": "2023-05-29", "conversation": "s2",
           "text": "A Northern Flicker in my local park last weekend brings my species count to 32."},
          {"id": "cat", "speaker": "user", "text": "My cat sleeps all day.", "date": "2023-05-30", "conversation": "s2"}]
BIRDS_QUESTION = "How many species of birds have I seen in my local park?"


def test_a_later_value_of_the_slot_in_other_words_is_brought_up_from_below_the_window():
    """The newer count covers less of the question than the topic rule asks and ranks sixth; it
    states the asked kind of value (a count) as the older turn does, so it is the slot's new value."""
    plain = _memory(BIRDS, updates=False).search(BIRDS_QUESTION, k=10)
    assert plain.index("new") >= 5 and plain.index("old") < plain.index("new")
    window = _memory(BIRDS, updates_depth=5).search(BIRDS_QUESTION, k=5)  # the window alone misses it
    assert "new" not in window and window == ["old"] + [i for i in plain[:5] if i != "old"]  # a count stated first
    found = _memory(BIRDS).search(BIRDS_QUESTION, k=5)
    assert found.index("new") < found.index("old") == found.index("new") + 1


def test_the_words_that_date_a_question_are_not_its_topic():
    """"previously" and "more frequently" say when and what kind of value is asked, not what about: the later
    turn stating a frequency covers the question's topic (the gym) and comes first."""
    records = [{"id": "old", "speaker": "user", "date": "2023-06-01", "conversation": "s1",
                "text": "I go to the gym on Tuesdays and Saturdays."},
               {"id": "tip", "speaker": "assistant", "date": "2023-06-01", "conversation": "s1",
                "text": "Going to the gym on Tuesdays and Saturdays is a fine plan."},
               {"id": "new", "speaker": "user", "date": "2023-08-15", "conversation": "s2",
                "text": "I've been consistent with my gym routine lately: four times a week."}]
    question = "Do I go to the gym more frequently than I did previously?"
    assert _memory(records, updates=False).search(question, k=1) != ["new"]
    assert _memory(records).search(question, k=1) == ["new"]


def test_a_value_said_later_on_the_day_asked_replaces_the_earlier_one():
    """The search keeps every turn said on the day asked; the rules read to the same end of day, so a value
    said that evening replaces an earlier day's, asked that morning."""
    records = [{**r, "date": "2023-06-01T20:50"} if r["id"] == "new" else r for r in FOLLOWERS]
    assert _memory(records).search(QUESTION, k=1, asked_on="2023-06-01T08:39") == ["new"]
    assert _memory(records).search(QUESTION, k=1, asked_on="2023-05-31T23:00") == ["old"]


def test_parts_joined_into_a_sum_replace_none_of_each_other():
    """Two books, each its own turn: "combined" asks both, so the later turn does not take the earlier's place."""
    books = [{"id": "hugo", "speaker": "user", "date": "2023-05-24T08:41", "conversation": "s1",
              "text": "I finished The Seven Husbands of Evelyn Hugo; it took me two and a half weeks to finish."},
             {"id": "tip", "speaker": "assistant", "date": "2023-05-24T08:41", "conversation": "s1",
              "text": "Evelyn Hugo and The Nightingale are both loved."},
             {"id": "night", "speaker": "user", "date": "2023-05-24T22:29", "conversation": "s2",
              "text": "I loved The Nightingale and Evelyn Hugo, both took me a while to finish."}]
    question = "How long did I take to finish Evelyn Hugo and The Nightingale combined?"
    plain = _memory(books, updates=False).search(question, k=3)
    assert plain[0] == "hugo" and _memory(books).search(question, k=3) == plain
    assert _memory(books).search(question.replace(" combined", ""), k=1) == ["night"]


def test_a_state_asked_as_of_an_event_or_a_date_named_is_left_as_found():
    question = "How many followers did I have on Instagram when I went to Paris?"
    assert _memory().search(question, k=3) == _memory(updates=False).search(question, k=3)
    for named in ("How many followers did I have on Instagram in May 2023?", "How many followers on Instagram in May?"):
        assert _memory().search(named, k=3) == _memory(updates=False).search(named, k=3)
    assert _memory(updates=False).search(question, k=1) == ["old"] and _memory().search(QUESTION, k=1) == ["new"]


def test_a_later_value_said_after_the_day_asked_replaces_nothing():
    plain = _memory(BIRDS, updates=False).search(BIRDS_QUESTION, k=5, asked_on="2023-05-26")
    assert _memory(BIRDS).search(BIRDS_QUESTION, k=5, asked_on="2023-05-26") == ["old"] + [i for i in plain if i != "old"]
    assert "new" in _memory(BIRDS).search(BIRDS_QUESTION, k=5, asked_on="2023-05-29")


def test_a_later_turn_stating_no_value_of_the_asked_kind_is_not_brought_up():
    records = [{**r, "text": r["text"].replace(" to 32", " up")} if r["id"] == "new" else r for r in BIRDS]
    assert "new" not in _memory(records).search(BIRDS_QUESTION, k=5)


def test_a_later_value_of_another_speaker_is_not_brought_up():
    records = [{**r, "speaker": "friend"} if r["id"] == "new" else r for r in BIRDS]
    assert "new" not in _memory(records).search(BIRDS_QUESTION, k=5)


def test_a_turn_stating_the_value_asked_comes_before_one_asking_it_again():
    """"How many stars do I need?" is answered by "I need 120 stars", not by the user asking it again or an
    assistant's table of numbers; another person's count, and one said after the day asked, stay where found."""
    records = [{"id": "ask1", "speaker": "user", "date": "2023-07-11", "conversation": "s1",
                "text": "How many stars do I need to reach the gold level on my coffee rewards app?"},
               {"id": "tab", "speaker": "assistant", "date": "2023-07-11", "conversation": "s1",
                "text": "Gold level on a coffee rewards app: Level 1, Level 2 and Level 3 stars."},
               {"id": "says", "speaker": "user", "date": "2023-07-30", "conversation": "s2",
                "text": "Actually I need 120 stars to reach the gold level, my app says."},
               {"id": "ask2", "speaker": "user", "date": "2023-07-30", "conversation": "s2",
                "text": "Can you remind me how many stars I need to reach the gold level on my rewards app?"}]
    question = "How many stars do I need to reach the gold level on my coffee rewards app?"
    plain = _memory(records, updates=False).search(question, k=4)
    assert plain.index("says") > 0
    assert _memory(records).search(question, k=4)[0] == "says"
    assert "says" not in _memory(records).search(question, k=4, asked_on="2023-07-20")
    other = [{**r, "speaker": "friend"} if r["id"] == "says" else r for r in records]
    assert _memory(other).search(question, k=4)[0] != "says"


def test_the_day_of_the_week_a_thing_recurs_on_is_what_holds_not_an_events_date():
    records = [{"id": "thu", "speaker": "user", "text": "I have a cocktail-making class on Thursday evenings.",
                "date": "2023-06-16", "conversation": "s1"},
               {"id": "fri", "speaker": "user", "text": "My cocktail class moved: it is on Fridays now.",
                "date": "2023-06-30", "conversation": "s2"}]
    question = "What day of the week do I take a cocktail-making class?"
    assert _memory(records, updates=False).search(question, k=1) == ["thu"]
    assert _memory(records).search(question, k=1) == ["fri"]
    assert _memory(records).search(question, k=1, asked_on="2023-06-20") == ["thu"]


def test_the_rules_cover_a_turn_as_the_confidence_does():
    """The rules' coverage, the question's weights computed once, is the same figure as
    graphmem.answer.sure.coverage's, over the question's topic for the value rules: the words dating an earlier value or asking a kind of value
    left out."""
    from graphmem.answer.sure import coverage
    from graphmem.index.query import Query
    from graphmem.memory.updates import _Cover

    mem = _memory(BIRDS)
    vocab = mem.store.weights(Query.parse(BIRDS_QUESTION), [])
    covered = _Cover(lambda: vocab, BIRDS_QUESTION)
    for r in BIRDS:
        assert covered(r["text"]) == coverage(vocab, BIRDS_QUESTION, r["text"])
    dated = _Cover(lambda: vocab, BIRDS_QUESTION.replace("have I seen", "have I previously seen"), topic=True)
    assert all(dated(r["text"]) == covered(r["text"]) for r in BIRDS)
    assert _Cover(lambda: vocab, BIRDS_QUESTION + " How often?", topic=True)("27 species") == covered("27 species")
