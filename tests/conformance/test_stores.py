"""One memory over three stores: the same ingests give the same searches, answers, claims, ids and
errors in RAM, in one SQLite file and in Neo4j (``store`` in conftest.py runs each case on each).

Each case builds the memory on its store and a reference :class:`graphmem.Memory` in RAM from the
same records, and compares them; a verb is done when its case passes on all three stores. This
suite replaces the tests that kept copies of the ranking equal: there is one ranking now, and
these cases hold every store to it.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest

from graphmem import Memory
from graphmem.errors import DataError, MisuseError
from graphmem.index.options import MemoryOptions

CHAT = [
    {"id": "c1", "speaker": "Nate", "text": "I made coconut milk ice cream for the party.", "date": "2023-05-08", "conversation": "friends", "turn": 1},
    {"id": "c2", "speaker": "Jo", "text": "Ooh, how did it turn out, Nate?", "date": "2023-05-08", "conversation": "friends", "turn": 2},
    {"id": "c3", "speaker": "Nate", "text": "Super good! Rich and creamy.", "date": "2023-05-08", "conversation": "friends", "turn": 3},
    {"id": "c4", "speaker": "Jo", "text": "My turtles ate the leftovers yesterday.", "date": "2023-05-10", "conversation": "friends", "turn": 5},
    {"id": "c5", "speaker": "Nate", "text": "Thanks, Jo! I adopted a dog called Rex last week.", "date": "2023-05-12", "conversation": "friends", "turn": 6},
    {"id": "h1", "speaker": "Mia", "text": "We went kayaking on the lake in May 2023.", "date": "2023-06-01", "conversation": "hikers"},
    {"id": "h2", "speaker": "Leo", "text": "The lake was cold; I want a new kayak.", "date": "2023-06-01", "conversation": "hikers"},
    {"id": "h3", "speaker": "Mia", "text": "Rex would love the lake too.", "date": "2023-06-02", "conversation": "hikers"},
    {"id": "u1", "speaker": "user", "text": "I am reading a book called Dune and I love it.", "date": "2023-07-01", "conversation": "assistant-chat"},
    {"id": "a1", "speaker": "assistant", "text": "Dune is a great book! Reading before bed helps many readers.", "date": "2023-07-01", "conversation": "assistant-chat"},
    {"id": "u2", "speaker": "user", "text": "How long should I read each night?", "date": "2023-07-02", "conversation": "assistant-chat"},
    {"id": "a2", "speaker": "assistant", "text": "For thirty minutes, for two weeks, then see.", "date": "2023-07-02", "conversation": "assistant-chat"},
]

QUESTIONS = [
    "How did the ice cream turn out?", "What did Nate adopt?", "Who went kayaking?", "What happened in May 2023?",
    "When did the turtles eat?", "What book am I reading?", "How long should I read?", "lake kayak Rex",
    "What did Jo say on 10 May 2023?", "Nate coconut", "zzqx nothing matches", "我在读什么书",
]


def _refusal(verb) -> str:
    """The one line a verb is refused with (a ``DataError``)."""
    with pytest.raises(DataError) as refused:
        verb()
    return str(refused.value)


def _both(store, records=CHAT, **settings):
    mem, here = store(**settings), Memory(**settings)
    assert mem.ingest(records) == here.ingest(records) == len({(r.get("user"), r["id"]) for r in records})
    return mem, here


def test_searches_and_answers_are_the_ram_memorys(store):
    mem, here = _both(store)
    for q in QUESTIONS:
        for conversation in (None, "friends", "assistant-chat"):
            assert mem.search(q, k=4, conversation=conversation) == here.search(q, k=4, conversation=conversation), q
        for asked_on in ("2023-05-11", datetime(2023, 6, 3)):
            assert mem.search(q, k=4, asked_on=asked_on) == here.search(q, k=4, asked_on=asked_on), (q, asked_on)
        assert mem.ask(q) == here.ask(q), q
        assert mem.search_conversations(q, k=3) == here.search_conversations(q, k=3), q
    assert mem.search("What did Nate adopt?", k=1) == ["c5"]  # ids as ingested, in every store


def test_locomo_searches_are_the_ram_memorys(store, dataset):
    convs = [c for c in dataset.conversations if c.id in ("conv-26", "conv-30")]
    records = [{"id": f"{c.id}/{t.id}", "speaker": t.speaker, "text": t.text, "date": t.date, "conversation": c.id}
               for c in convs for t in c.turns]
    mem, here = store(), Memory()
    for start in range(0, len(records), 200):
        mem.ingest(records[start:start + 200])
        here.ingest(records[start:start + 200])
    questions = [q.text for c in convs for q in c.questions][::4][:100]
    for q in questions:
        assert mem.search(q, k=5) == here.search(q, k=5), q
    for q in questions[:25]:
        assert mem.ask(q) == here.ask(q), q
    assert mem.claims("conv-30") == here.claims("conv-30")


def test_claims_are_the_ram_memorys(store):
    mem, here = _both(store)
    for conversation in ("friends", "hikers", "assistant-chat"):
        assert mem.claims(conversation) == here.claims(conversation), conversation
    assert any(c.predicate == "adopt" and c.turn_id == "c5" for c in mem.claims("friends"))
    for conversation in ("nowhere", "default"):
        expected = f"conversation {conversation!r}: the memory holds no turn of it"
        assert _refusal(lambda: mem.claims(conversation)) == _refusal(lambda: here.claims(conversation)) == expected


TRIO = [
    {"id": "t1", "speaker": "Ann", "text": "My friend Cy bakes bread. Thanks, Cy, it was lovely!", "date": "2023-05-08", "conversation": "trio"},
    {"id": "t2", "speaker": "Bob", "text": "You said you bake too, Ann.", "date": "2023-05-08", "conversation": "trio"},
    {"id": "t3", "speaker": "Ann", "text": "I adopted a dog called Rex.", "date": "2023-05-09", "conversation": "trio"},
    {"id": "t4", "speaker": "Cy", "text": "Thanks, Ann! Bob, you went hiking in May.", "date": "2023-05-09", "conversation": "trio"},
    {"id": "t5", "speaker": "Bob", "text": "Yes! You climbed with me, Cy.", "date": "2023-05-10", "conversation": "trio"},
    {"id": "t6", "speaker": "Ann", "text": "You left early though.", "date": "2023-05-10", "conversation": "trio"},
]


def test_a_third_speakers_conversation_has_the_same_claims_in_every_store(store):
    """Cy, introduced by Ann, starts speaking in the second ingest: the turns that named Cy are read
    again, and "you" is whom a vocative names, else the last other speaker, in every store."""
    mem, here, whole = store(), Memory(), Memory()
    whole.ingest(TRIO)
    for batch in (TRIO[:3], TRIO[3:]):
        assert mem.ingest(batch) == here.ingest(batch) == len(batch)
        assert mem.claims("trio") == here.claims("trio")
    assert mem.claims("trio") == whole.claims("trio")
    about = {(c.turn_id, c.subject, c.predicate) for c in mem.claims("trio")}
    assert {("t2", "ann", "say"), ("t4", "bob", "go"), ("t5", "cy", "climb"), ("t6", "bob", "leave")} <= about
    assert mem.store.speakers("trio") == here.store.speakers("trio") == ["Ann", "Bob", "Cy"]
    for q in ("Who went hiking?", "Did Cy bake bread?", "What did Ann adopt?"):
        assert mem.search(q, k=3) == here.search(q, k=3), q
        assert mem.ask(q) == here.ask(q), q


def test_ids_are_the_memorys_own_and_a_held_id_is_judged_by_its_content(store):
    mem, here = _both(store)
    assert mem.ingest(CHAT[:3]) == here.ingest(CHAT[:3]) == 0  # the same turns again: nothing new
    changed = [{**CHAT[0], "text": "Something else entirely."}]
    for memory in (mem, here):
        with pytest.raises(DataError, match=r"record 0 \(id 'c1'\): the memory holds id 'c1' already, with other content"):
            memory.ingest(changed)
    moved = [{**CHAT[5], "conversation": "friends"}]  # an id is the memory's, not its conversation's
    for memory in (mem, here):
        with pytest.raises(DataError, match="holds id 'h1' already"):
            memory.ingest(moved)
    assert len(mem) == len(here) == len(CHAT)
    assert list(mem.turns()) == list(here.turns())
    assert [t.id for t in mem.turns("hikers")] == ["h1", "h2", "h3"]
    assert list(mem.turns("nowhere")) == []


@pytest.mark.parametrize("bad, message", [
    ({"id": "x", "speaker": "Ann", "text": "a lone \udc80 surrogate"}, "'text' is not valid Unicode"),
    ({"id": "x\ud800", "speaker": "Ann", "text": "hi"}, "'id' is not valid Unicode"),
    ({"id": "x", "speaker": "Ann", "text": "hi", "turn": 2**70}, "'turn' must be a whole number from 0 to 2\\*\\*63 - 1"),
    ({"id": "x", "speaker": "Ann", "text": "hi", "turn": True}, "'turn' must be a whole number"),
    ({"id": "x", "speaker": "Ann", "text": "hi", "date": "0000-01-01"}, "cannot read the date"),
    ({"id": "x", "speaker": "Ann", "text": "hi", "date": datetime(2023, 3, 1, tzinfo=timezone(timedelta(hours=2)))},
     "the date '2023-03-01T00:00:00\\+02:00' has a time zone"),
    ({"id": "x", "speaker": "  ", "text": "hi"}, "'speaker' must be a non-empty string"),
    ({"id": "x", "speaker": "Ann", "text": "hi", "conversation": ""}, "'conversation' must be a non-empty string"),
    ({"id": "x", "speaker": "Ann", "text": "hi", "usr": "u1"}, "unknown key 'usr' \\(did you mean 'user'\\?\\)"),
    ({"id": "x", "speaker": "Ann", "text": "hi", "converstion": "c"},
     "unknown key 'converstion' \\(did you mean 'conversation'\\?\\); a record takes id, speaker, text, date"),
    ({"id": "x", "speaker": "Ann", "text": "hi", "mood": "sunny"}, "unknown key 'mood'; a record takes"),
    ({"id": "x", "speaker": "Ann", "text": ""}, "'text' must be a non-empty string"),
    ({"id": "x", "speaker": "Ann", "text": " \t\n"}, "'text' must be a non-empty string"),
    ({"id": "x", "speaker": "Ann", "text": "\u200b\u2060"}, "'text' shows no character"),
    ({"id": "x", "speaker": "\u200b", "text": "hi"}, "'speaker' shows no character"),
    ({"id": "x", "speaker": "\ufeff\u200d ", "text": "hi"}, "'speaker' shows no character"),
])
def test_what_one_store_refuses_every_store_refuses_before_writing(store, bad, message):
    mem, here = _both(store, CHAT[:2])
    for memory in (mem, here):
        with pytest.raises(DataError, match=r"record 1 \(id '.*'\): " + message):
            memory.ingest([CHAT[2], bad])
        assert len(memory) == 2  # nothing of the batch was written


def test_dates_at_the_calendars_edges_are_kept_and_searched_alike(store):
    edges = [{"id": "e1", "speaker": "Ann", "text": "See you tomorrow, and next year too.", "date": "9999-12-31"},
             {"id": "e2", "speaker": "Bob", "text": "I saw it yesterday and last month.", "date": "0001-01-01"}]
    mem, here = _both(store, edges)
    for q, asked_on in (("What happens tomorrow?", "9999-12-31"), ("What did I see yesterday?", "0001-01-01"),
                        ("What happened in December 9999?", None)):
        assert mem.search(q, asked_on=asked_on) == here.search(q, asked_on=asked_on), q
        assert mem.ask(q, asked_on=asked_on) == here.ask(q, asked_on=asked_on), q


def test_a_date_with_a_fraction_of_a_second_is_kept_to_the_microsecond_alike(store):
    turns = [{"id": "f1", "speaker": "Ann", "text": "The kayak arrived this morning.", "date": "2023-05-08T10:00:00.123456"},
             {"id": "f2", "speaker": "Bob", "text": "Great, see you at the lake.", "date": "2023-05-08 10:00:01.5"}]
    mem, here = _both(store, turns)
    assert [t.date for t in mem.turns()] == [t.date for t in here.turns()] == \
        [datetime(2023, 5, 8, 10, 0, 0, 123456), datetime(2023, 5, 8, 10, 0, 1, 500000)]
    assert mem.search("kayak", asked_on="2023-05-09T08:00:00.25") == here.search("kayak", asked_on="2023-05-09") == ["f1"]


def test_a_closed_memory_refuses_every_verb_alike(store):
    mem = store()
    mem.ingest(CHAT[:2])
    mem.close()
    for verb in (lambda: mem.ingest(CHAT[2:3]), lambda: mem.search("ice cream"), lambda: mem.ask("what?"),
                 lambda: mem.claims("friends"), lambda: len(mem), lambda: mem.turns()):
        with pytest.raises(MisuseError, match="this memory was closed"):
            verb()


def _of(user: str | None, records=CHAT) -> list[dict]:
    return [{**r, "user": user, "text": f"{r['text']} ({user or 'nobody'})"} for r in records]


def test_users_are_kept_apart(store):
    """Three users' turns under the same ids and conversations: each search, answer, listing and
    claim sees one user's only; ``user=None`` means the turns that carry no user, not everyone."""
    records = _of(None) + _of("ann") + _of("bob", CHAT[:6])
    mem, here = _both(store, records)
    assert len(mem) == len(here) == len(records)
    for user, mine in ((None, "(nobody)"), ("ann", "(ann)"), ("bob", "(bob)"), ("cy", None)):
        for q in QUESTIONS[:6]:
            found = mem.records_for(q, k=5, user=user)
            assert [t.id for t in found] == here.search(q, k=5, user=user), (user, q)
            assert all(t.user == user and t.text.endswith(mine) for t in found), (user, q)
            assert mem.ask(q, user=user) == here.ask(q, user=user), (user, q)
        assert list(mem.turns(user=user)) == list(here.turns(user=user))
        assert {t.user for t in mem.turns(user=user)} <= {user}
        assert mem.search_conversations("kayak lake", user=user) == here.search_conversations("kayak lake", user=user)
    assert mem.search("What did Nate adopt?", k=5, user="cy") == []
    assert mem.claims("friends", user="ann") == here.claims("friends", user="ann")
    alone = Memory()
    alone.ingest([{**r, "user": None} for r in _of("ann")])
    assert mem.claims("friends", user="ann") == alone.claims("friends")  # as if ann's were the only turns
    assert _refusal(lambda: mem.claims("friends", user="cy")) == "conversation 'friends': the memory holds no turn of it"


def test_one_users_update_and_forget_never_touch_another_users_turn_of_the_same_id(store):
    """Two users, and the turns of no user, each hold turns c1..c5 in a conversation ``friends``: an
    update of ann's c1 and a forget of ann's c2 change ann's turns alone. Bob's and nobody's turns,
    searches, answers, claims and facts are as before, and ann's are a memory's that was given her
    changed turns alone (no user's turn ever answers for another's)."""
    records = _of(None) + _of("ann") + _of("bob")
    mem = store()
    mem.ingest(records)

    def seen(user):
        return (list(mem.turns(user=user)), [mem.search(q, k=5, user=user) for q in QUESTIONS[:6]],
                [mem.ask(q, user=user) for q in QUESTIONS[:3]], mem.claims("friends", user=user), mem.facts("Nate", user=user))

    before = {user: seen(user) for user in (None, "bob")}
    new = mem.update("c1", text="I made mango sorbet for the party.", user="ann")
    assert (new.id, new.user, new.conversation) == ("c1", "ann", "friends") and mem.get("c1", user="ann") == new
    assert mem.forgetting(ids=["c2"], user="ann") == (1, ("c2",), ())
    assert mem.get("c2", user="ann") is None and mem.get("c2", user="bob") is not None and mem.get("c2") is not None
    assert {user: seen(user) for user in (None, "bob")} == before
    assert mem.search("mango sorbet", k=5, user="bob") == mem.search("mango sorbet", k=5) == []
    alone = Memory()
    ann = {r["id"]: r for r in _of("ann")}
    alone.ingest([r for i, r in ann.items() if i not in ("c1", "c2")] + [{**ann["c1"], "text": new.text}])  # an update comes last
    for q in QUESTIONS[:6] + ["mango sorbet"]:
        assert mem.search(q, k=5, user="ann") == alone.search(q, k=5, user="ann"), q
    assert mem.claims("friends", user="ann") == alone.claims("friends", user="ann")
    assert mem.facts("Nate", user="ann") == alone.facts("Nate", user="ann")


def test_forgetting_leaves_a_memory_that_never_ingested_them(store, dataset):
    """LoCoMo's conv-26, conv-30 and conv-41: one conversation forgotten whole and 60 random turns of the
    others; every search, answer and claim is then that of a memory that ingested only the rest."""
    convs = [c for c in dataset.conversations if c.id in ("conv-26", "conv-30", "conv-41")]
    records = [{"id": f"{c.id}/{t.id}", "speaker": t.speaker, "text": t.text, "date": t.date, "conversation": c.id}
               for c in convs for t in c.turns]
    mem = store()
    for start in range(0, len(records), 300):
        mem.ingest(records[start:start + 300])
    mem.claims("conv-30")  # claims read before forgetting are read again after
    rest = [r for r in records if r["conversation"] != "conv-41"]
    dropped = {r["id"] for r in random.Random(7).sample(rest, 60)}
    assert mem.forget(conversation="conv-41") == sum(r["conversation"] == "conv-41" for r in records)
    assert mem.forget(ids=sorted(dropped) + ["no such id"]) == 60
    kept = [r for r in rest if r["id"] not in dropped]
    fresh = Memory()
    fresh.ingest(kept)
    assert len(mem) == len(fresh) == len(kept) and list(mem.turns()) == list(fresh.turns())
    questions = [q.text for c in convs for q in c.questions][::3][:100]
    for q in questions:
        assert mem.search(q, k=5) == fresh.search(q, k=5), q
    for q in questions[:25]:
        assert mem.ask(q) == fresh.ask(q), q
    for conv in ("conv-26", "conv-30"):
        assert mem.claims(conv) == fresh.claims(conv), conv
    assert _refusal(lambda: mem.claims("conv-41")) == "conversation 'conv-41': the memory holds no turn of it"


LEANING = [
    {"id": "t1", "speaker": "Ann", "text": "Max loves the park near our house.", "date": "2023-05-08", "conversation": "trio"},
    {"id": "t2", "speaker": "Bob", "text": "That sounds lovely, Ann.", "date": "2023-05-08", "conversation": "trio"},
    {"id": "t3", "speaker": "Cy", "text": "I baked a lemon cake for the picnic.", "date": "2023-05-08", "conversation": "trio"},
    {"id": "t4", "speaker": "Ann", "text": "My son Max is five and he loves cake.", "date": "2023-05-08", "conversation": "trio"},
    {"id": "t5", "speaker": "Bob", "text": "You bake so well, I love it.", "date": "2023-05-08", "conversation": "trio"},
    {"id": "t6", "speaker": "Cy", "text": "Thanks! Max can have the last slice.", "date": "2023-05-09", "conversation": "trio"},
    {"id": "t7", "speaker": "Ann", "text": "Max went hiking with me yesterday.", "date": "2023-05-09", "conversation": "trio"},
]


def test_forgetting_a_turn_others_read_by_leaves_a_memory_that_never_had_it(store):
    """Three speakers, one at a time forgotten from the middle: the turn that made Max a person
    (the turns naming Max read otherwise without it), then the turn whom the next one addresses, then
    the turn a reply read: each time every claim, fact and search is a fresh memory's of the rest."""
    mem = store()
    mem.ingest(LEANING)
    mem.claims("trio")
    kept = list(LEANING)
    for gone in ("t4", "t3", "t6"):
        assert mem.forget(ids=[gone]) == 1
        kept = [r for r in kept if r["id"] != gone]
        fresh = Memory()
        fresh.ingest(kept)
        assert mem.claims("trio") == fresh.claims("trio"), gone
        for who in ("Ann", "Max", "Bob", "Cy"):
            assert mem.facts(who) == fresh.facts(who), (gone, who)
        for q in ("Who loves the park?", "Who bakes cake?", "What did Max do yesterday?"):
            assert mem.search(q, k=3) == fresh.search(q, k=3), (gone, q)


def test_forgetting_a_user_or_nothing_said_alike(store):
    mem, here = _both(store, _of(None) + _of("ann"))
    for memory in (mem, here):
        with pytest.raises(MisuseError, match="say what to forget"):
            memory.forget()
        assert memory.forget(user="ann") == len(CHAT)
        assert list(memory.turns(user="ann")) == [] and len(memory) == len(CHAT)
        assert memory.forget(ids=["c1", "c2"]) == 2 and memory.search("ice cream turn out", k=3) == \
            [t for t in memory.search("ice cream turn out", k=3) if t not in ("c1", "c2")]
    assert mem.search("kayak lake", k=5) == here.search("kayak lake", k=5)


def test_a_conversation_named_with_another_users_mark_stays_its_users(store):
    """The Neo4j store marks each user's turns with a token in a full-text field that also holds the
    conversation's words: a conversation named with a space and another user's token is still its
    own user's, in every store."""
    from graphmem.store.users import owner

    eve = [{"id": "e1", "speaker": "Eve", "text": "I adopted a dog.", "user": "eve", "conversation": "x " + owner(None)},
           {"id": "e2", "speaker": "Eve", "text": "I adopted a cat.", "user": "eve", "conversation": "y " + owner("al")}]
    mem, here = _both(store, eve)
    for memory in (mem, here):
        assert memory.search("adopted") == [] and memory.search("adopted", user="al") == []
        assert memory.search_conversations("adopted", user="al") == [] and memory.ask("Who adopted a cat?", user="al").cited == ()
        assert sorted(memory.search("adopted", user="eve")) == ["e1", "e2"]


def test_people_of_two_chats_whose_ids_join_alike_stay_two(store):
    """Conversation "a" with speaker "b/c", and conversation "a/b" with speaker "c": two people, each
    with their own facts, whichever was written first (the Neo4j store keys a person by both ids)."""
    chats = [{"id": "1", "speaker": "b/c", "text": "I live in Paris.", "conversation": "a", "date": "2023-01-01"},
             {"id": "2", "speaker": "Ann", "text": "Nice.", "conversation": "a", "date": "2023-01-01"},
             {"id": "3", "speaker": "c", "text": "I work as a nurse.", "conversation": "a/b", "date": "2023-01-02"},
             {"id": "4", "speaker": "Bob", "text": "Cool.", "conversation": "a/b", "date": "2023-01-02"}]
    mem, here = _both(store, chats)
    for who, holds in (("c", "as a nurse"), ("b/c", "in Paris")):
        assert [f.object for f in mem.facts(who)] == [f.object for f in here.facts(who)] == [holds], who
    assert mem.forget(conversation="a/b") == 2 and [f.object for f in mem.facts("b/c")] == ["in Paris"]


def test_a_k_past_any_count_of_turns_gives_them_all(store):
    mem, here = _both(store)
    for memory in (mem, here):
        assert len(memory.search("kayak lake", k=2**63)) == len(memory.search("kayak lake", k=len(CHAT)))
        assert memory.search_conversations("kayak lake", k=2**70) == memory.search_conversations("kayak lake", k=9)


def test_forgetting_ids_of_a_conversation_forgets_only_those_in_it(store):
    mem, here = _both(store)
    for memory in (mem, here):
        assert memory.forget(ids=["c1", "h1", "nowhere"], conversation="hikers") == 1
        held = [t.id for t in memory.turns()]
        assert "c1" in held and "h1" not in held and len(held) == len(CHAT) - 1
        assert memory.forget(ids=["c2"], conversation="nowhere") == 0 and len(memory) == len(CHAT) - 1


def test_conversations_tied_after_a_forget_rank_as_in_a_memory_that_never_held_the_turn(store):
    """Two conversations tie on a query: the one met first ranks first. Once the turn that opened
    conversation A goes, B was met first, as in a memory that never held that turn."""
    turns = [{"id": "x1", "speaker": "Ann", "text": "Good morning.", "date": "2023-04-01", "conversation": "A"},
             {"id": "x2", "speaker": "Ann", "text": "We went kayaking on the lake.", "date": "2023-05-01", "conversation": "B"},
             {"id": "x3", "speaker": "Ann", "text": "We went kayaking on the lake.", "date": "2023-05-01", "conversation": "A"}]
    mem = store()
    mem.ingest(turns)
    assert mem.forget(ids=["x1"]) == 1
    forgotten = mem.search_conversations("kayak lake")
    fresh = store()  # in Neo4j, the database emptied first: the memory above is read already
    fresh.ingest(turns[1:])
    assert forgotten == fresh.search_conversations("kayak lake") and sorted(forgotten) == ["A", "B"]


MOVE = [
    {"id": "m1", "speaker": "Alice", "text": "I live in Paris and I work as a nurse.", "date": "2023-01-10", "conversation": "move"},
    {"id": "m2", "speaker": "Bob", "text": "Paris is lovely, Alice!", "date": "2023-01-10", "conversation": "move"},
    {"id": "m3", "speaker": "Alice", "text": "I moved from Paris to Berlin last month.", "date": "2023-06-02", "conversation": "move"},
    {"id": "m4", "speaker": "Bob", "text": "Berlin suits you. I drive a red Volvo now.", "date": "2023-06-02", "conversation": "move"},
]


def test_facts_know_when_they_stopped_holding(store):
    """Alice lived in Paris until she said she moved to Berlin: the Paris fact ends that day, nothing
    is deleted, and ``as_of`` keeps what held then; every store gives the RAM memory's facts."""
    mem, here = _both(store, MOVE + CHAT)
    facts = mem.facts("Alice", history=True)
    assert facts == here.facts("alice", history=True) and facts
    paris = [f for f in facts if f.turn_id == "m1" and f.predicate == "live"]
    berlin = [f for f in facts if f.turn_id == "m3"]
    assert paris and berlin and paris[0].valid_to == berlin[0].valid_from == datetime(2023, 6, 2)
    assert all(f.valid_to is None for f in berlin) and all(f.subject == "alice" for f in facts)
    between = mem.facts("Alice", as_of="2023-03-01")
    assert "m1" in {f.turn_id for f in between} and "m3" not in {f.turn_id for f in between}
    assert mem.facts("Alice", as_of="2024-01-01") == mem.facts("Alice")
    assert mem.facts("Alice", as_of="2022-01-01") == [] and mem.facts("Nobody") == []
    holds = mem.facts("Alice")  # what holds now: the history's facts not ended
    assert holds == here.facts("Alice") and sorted(map(repr, holds)) == sorted(repr(f) for f in facts if f.valid_to is None)
    assert paris[0].ended_by == "m3" and paris[0].attribute == "residence" and berlin[0].value == "berlin"
    for who in ("Nate", "Bob", "user"):
        assert mem.facts(who) == here.facts(who) and mem.facts(who, history=True) == here.facts(who, history=True), who
    assert _refusal(lambda: mem.facts("  ")) == "about must be a person's name, not '  '"


NOTES = [
    {"id": "n1", "speaker": "Nadia", "text": "I live in Lisbon and I work as a chef at Nando's.", "date": "2023-01-05",
     "conversation": "notes"},
    {"id": "n2", "speaker": "Nadia", "text": "Big news: we moved to Porto last week, so Porto is home now.",
     "date": "2023-04-02", "conversation": "notes"},
    {"id": "n3", "speaker": "Nadia", "text": "I became a pilot!", "date": "2023-08-20", "conversation": "notes"},
]


def test_one_speakers_notes_give_facts_and_their_history(store):
    """A conversation only one person speaks in (notes; an agent storing the user's turns) gives
    that person's facts, ended by what they say later in other words, the same in every store."""
    mem, here = _both(store, NOTES)
    now = mem.facts("Nadia")
    assert now == here.facts("Nadia")
    assert {(f.attribute, f.value) for f in now} >= {("residence", "porto"), ("occupation", "pilot")}
    assert ("residence", "lisbon") not in {(f.attribute, f.value) for f in now}
    every = mem.facts("Nadia", history=True)
    assert every == here.facts("Nadia", history=True)
    homes = [(f.value, f.turn_id, f.ended_by) for f in every if f.attribute == "residence"]
    assert homes == [("lisbon", "n1", "n2"), ("porto", "n2", None)]
    assert {(f.attribute, f.value) for f in mem.facts("Nadia", as_of="2023-05-01")} >= {("residence", "porto"),
                                                                                         ("occupation", "chef")}


def test_forgetting_another_speakers_turn_keeps_a_persons_facts(store):
    """Forgetting Bob's turn leaves Alice the only speaker: her facts are those of a memory that
    never held Bob's turn, not none."""
    mem, here = _both(store, MOVE[:3])
    before = mem.facts("Alice", history=True)
    for memory in (mem, here):
        assert memory.forget(ids=["m2"]) == 1
    after = mem.facts("Alice", history=True)
    assert after == before == here.facts("Alice", history=True)
    assert [f.value for f in mem.facts("Alice") if f.attribute == "residence"] == ["berlin"]
    fresh = store()
    fresh.ingest([MOVE[0], MOVE[2]])
    assert fresh.facts("Alice", history=True) == after


def test_facts_are_a_users_own_and_go_with_what_is_forgotten(store):
    mem, here = _both(store, _of(None, MOVE) + _of("ann", MOVE[:2]))
    assert {f.turn_id for f in mem.facts("Alice", user="ann")} == {"m1"}
    assert all(f.valid_to is None for f in mem.facts("Alice", user="ann"))  # ann never heard of Berlin
    assert mem.facts("Alice", user="cy") == []
    for memory in (mem, here):
        assert memory.forget(ids=["m3"]) == 1
    assert mem.facts("Alice") == here.facts("Alice") and all(f.valid_to is None for f in mem.facts("Alice"))


def test_what_holds_as_of_the_day_asked_comes_first(store):
    """After "I live in Paris" and, later, "I moved from Paris to Berlin", the Berlin turn is cited
    first; asked as of a day between the two, the Paris turn; the same in every store."""
    mem, here = _both(store, MOVE + CHAT)
    for asked_on, first, city in ((None, "m3", "Berlin"), ("2023-03-01", "m1", "Paris"), ("2023-06-02", "m3", "Berlin")):
        found = mem.search("Where does Alice live?", k=3, asked_on=asked_on)
        assert found == here.search("Where does Alice live?", k=3, asked_on=asked_on) and found[0] == first, asked_on
        answer = mem.ask("Where does Alice live?", asked_on=asked_on)
        assert answer == here.ask("Where does Alice live?", asked_on=asked_on) and answer.cited[0] == first
        assert city in answer.reply and answer.source == first, (asked_on, answer)
    plain = store(options=MemoryOptions(updates=False))
    plain.ingest(MOVE)
    assert plain.search("Where does Alice live?", k=3)[0] == "m1"  # the store's own order: Paris ranks first


LATER = [  # said after everything above, and a note with no date
    {"id": "n1", "speaker": "Alice", "text": "Berlin is grey in winter; I now live in Hamburg.", "date": "2023-11-20T18:30",
     "conversation": "move"},
    {"id": "n0", "speaker": "Alice", "text": "Note to self: Berlin museums are free on Sundays.", "conversation": "notes"},
]


def test_nothing_said_after_the_day_asked_is_searched_or_answered(store):
    """As of a day, a turn said on a later day is found by no search, cited by no answer and read into
    no fact; one said that day, at any hour, is; an undated turn has no day to be after, and is kept."""
    mem, here = _both(store, MOVE + CHAT + LATER)
    for asked_on in ("2023-03-01", "2023-06-02", datetime(2023, 11, 20, 9, 0), None):
        for q in ("Berlin", "Where does Alice live?", "Berlin grey winter", "Hamburg", "What did Nate adopt?"):
            found = mem.records_for(q, k=20, asked_on=asked_on)
            assert [t.id for t in found] == here.search(q, k=20, asked_on=asked_on), (q, asked_on)
            if asked_on is not None:
                day = datetime.fromisoformat(str(asked_on)[:10]).date()
                assert all(t.date is None or t.date.date() <= day for t in found), (q, asked_on)
            answer = mem.ask(q, asked_on=asked_on)
            assert answer == here.ask(q, asked_on=asked_on), (q, asked_on)
            assert mem.search_conversations(q, asked_on=asked_on) == here.search_conversations(q, asked_on=asked_on)
        assert mem.facts("Alice", as_of=asked_on) == here.facts("Alice", as_of=asked_on)
    assert "n1" in mem.search("Hamburg", asked_on="2023-11-20") and mem.search("Hamburg", asked_on="2023-11-19") == []
    assert mem.search("Berlin museums", k=1, asked_on="2023-03-01") == ["n0"]
    assert all(f.valid_to is None for f in mem.facts("Alice", as_of="2023-03-01"))  # the move to Berlin not said yet
    assert mem.ask("Where does Alice live?", asked_on="2023-03-01").reply == "Paris"


def test_ask_answers_a_state_from_the_fact_that_holds(store):
    """A question asking a person's attribute, in words no turn holds, is answered from the fact of it
    that holds as of the day asked, its turn cited first; the earlier value when asked for; alike in
    every store, a user's own included."""
    records = MOVE + CHAT + _of("ann", MOVE)
    mem, here = _both(store, records)
    for user in (None, "ann"):
        for q, asked_on, reply in (("What is Alice's job?", None, "nurse"), ("Where is Alice based?", None, "Berlin"),
                                   ("Where is Alice based?", "2023-03-01", "Paris"),
                                   ("Where did Alice live before?", None, "Paris"),
                                   ("What does Bob drive?", None, "red Volvo")):
            answer = mem.ask(q, asked_on=asked_on, user=user)
            assert answer == here.ask(q, asked_on=asked_on, user=user), (q, user)
            assert (answer.reply, answer.measure) == (reply, "fact") and answer.cited[0] == answer.source, (q, user)
            assert reply in answer.sentence
    assert mem.ask("What is Alice's job?", user="cy").quiet


SAID = [
    {"id": "s1", "speaker": "Tomasz", "text": "Started the new contract, living in Krakow for now.", "date": "2022-10-01",
     "conversation": "log"},
    {"id": "s2", "speaker": "Tomasz", "text": "Handed in my notice at Allegro. Starting at Revolut on Monday.", "date": "2023-02-01",
     "conversation": "log"},
    {"id": "s3", "speaker": "Tomasz", "text": "Moved again, Gdansk this time. Sea air, finally.", "date": "2023-03-15", "conversation": "log"},
]


def test_ask_reads_a_value_off_the_persons_own_turns_alike(store):
    """A value of the attribute asked, read off the person's own turns by its type when no fact holds it
    or when it was said after the fact (measure ``said``): alike in every store, a user's own included,
    and as of a day only from what was said by then."""
    mem, here = _both(store, SAID + _of("ann", SAID))
    for user in (None, "ann"):
        for q, asked_on in (("Where does Tomasz live?", None), ("Where does Tomasz live?", "2022-12-01"),
                            ("Which company employs Tomasz?", None), ("Where did Tomasz work before?", None)):
            answer = mem.ask(q, asked_on=asked_on, user=user)
            assert answer == here.ask(q, asked_on=asked_on, user=user), (q, user)
    assert mem.ask("Where does Tomasz live?").reply == "Gdansk"
    assert mem.ask("Where does Tomasz live?", asked_on="2022-12-01").reply == "Krakow"
    assert [mem.ask(q).reply for q in ("Which company employs Tomasz?", "Where did Tomasz work before?")] == ["Revolut", "Allegro"]



PETS = [
    {"id": "p1", "speaker": "Ines", "text": "We adopted a tabby cat called Mo from the shelter.", "date": "2022-04-02",
     "conversation": "pets"},
    {"id": "p2", "speaker": "Jo", "text": "Aww, Mo looks so fluffy in the photos!", "date": "2022-04-03", "conversation": "pets"},
    {"id": "p3", "speaker": "Ines", "text": "Sadly Mo passed away in his sleep last night.", "date": "2023-01-09",
     "conversation": "pets"},
]


def test_a_pet_that_died_as_the_sentence_subject_ends_the_owners_fact_alike(store):
    """"Mo passed away" is a claim about Mo, said by Ines: her pet fact ends at that turn in every store,
    holds as of a day before it, and Jo's word of Mo ends nothing of Jo's."""
    mem, here = _both(store, PETS + _of("ann", PETS))
    for user in (None, "ann"):
        for as_of in (None, "2022-06-01"):
            assert mem.facts("Ines", as_of=as_of, user=user) == here.facts("Ines", as_of=as_of, user=user), (as_of, user)
        assert mem.facts("Ines", user=user, history=True) == here.facts("Ines", user=user, history=True)
    pets = [f for f in mem.facts("Ines", history=True) if "Mo" in f.object]
    assert pets and all(f.valid_to is not None and f.ended_by == "p3" for f in pets)
    assert any("Mo" in f.object for f in mem.facts("Ines", as_of="2022-06-01"))
    assert not any("Mo" in f.object for f in mem.facts("Ines"))

RING = [
    {"id": "r1", "speaker": "Ann", "text": "I bought a diamond ring for my sister.", "date": "2023-03-01", "conversation": "gifts"},
    {"id": "r2", "speaker": "Bob", "text": "Nice! Was it expensive?", "date": "2023-03-01", "conversation": "gifts"},
    {"id": "r3", "speaker": "Ann", "text": "Yes, and I live in Lisbon now, so I shipped it.", "date": "2023-03-02", "conversation": "gifts"},
    {"id": "r4", "speaker": "Bob", "text": "Lisbon is nice in spring.", "date": "2023-03-02", "conversation": "gifts"},
]
ASKED = ["What did Ann buy?", "diamond ring", "Where does Ann live?", "Was it nice?", "What happened on 2 March 2023?",
         "Who shipped the ring?", "Lisbon spring nice"]


def _crowd(n: int) -> list[dict]:
    """``n`` small users whose words overlap the asked user's unevenly (some say "diamond" or "nice"
    over and over, some "Lisbon"), each in conversations of their own names and of the asked user's."""
    words = ["diamond", "nice", "Lisbon", "ring", "sister", "spring", "kayak", "Ann"]
    out = []
    for u in range(n):
        for i in range(1 + u % 5):
            w = words[(u + i) % len(words)]
            out.append({"id": f"r{i + 1}", "speaker": ("Ann", "Bob", "Cy")[(u + i) % 3], "user": f"u{u}",
                        "conversation": "gifts" if u % 2 else f"chat{u % 7}", "date": f"2023-03-0{1 + i % 3}",
                        "text": f"The {w} {w} was {words[(u * 3 + i) % len(words)]} on day {i}."})
    return out


def test_a_users_memory_among_200_users_answers_as_that_user_alone(store):
    """Issue #47: how rare a word is, how long a turn runs, which words are known at all are each user's
    own, so a user's searches (ids and order), conversations, answers (reply and confidence) and facts
    in a memory of 200 users are exactly those of the same user's turns alone, whatever the others say
    (B's turns saying "diamond" once moved A's ring below "nice"); the turns that carry no user are one
    partition too. Tested as forgetting is: against the RAM memory holding only that user's turns."""
    mine = [{**r, "user": "ann"} for r in RING]
    nobody = [{**r, "text": r["text"] + " Really."} for r in RING[:3]]
    mem = store()
    mem.ingest(_crowd(200)[:600] + mine + nobody)
    mem.ingest(_crowd(200)[600:])  # others' turns after the user's too
    for user, records in (("ann", mine), (None, nobody), ("u7", [r for r in _crowd(200) if r["user"] == "u7"])):
        alone = Memory()
        alone.ingest(records)
        for q in ASKED:
            assert mem.search(q, k=3, user=user) == alone.search(q, k=3, user=user), (user, q)
            assert mem.ask(q, user=user) == alone.ask(q, user=user), (user, q)
            assert mem.search_conversations(q, user=user) == alone.search_conversations(q, user=user), (user, q)
        for who in ("Ann", "Bob"):
            assert mem.facts(who, user=user) == alone.facts(who, user=user), (user, who)
    assert mem.forget(ids=["r1"], user="u3") == 1  # another user forgets: ann's answers do not move
    alone = Memory()
    alone.ingest(mine)
    assert [mem.ask(q, user="ann") for q in ASKED] == [alone.ask(q, user="ann") for q in ASKED]
