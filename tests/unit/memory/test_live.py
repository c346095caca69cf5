"""The live memory: fed one turn at a time it holds what a batch holds; saved, it reopens as it was;
a crash, a second process and bad records leave the file whole."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from datetime import date, datetime

import numpy as np
import pytest

from graphmem.index.query import Query
from graphmem.errors import MisuseError
from graphmem import Memory
from graphmem.claims.replies import unaddressed
from graphmem.errors import DataError
from graphmem.index.options import MemoryOptions
from graphmem.errors import MemoryFileInUse
from graphmem.text.dates import says_when
from tests.conftest import REPO


def _records(dataset, numbered: bool = False) -> list[dict]:
    return [{"id": f"{c.id}/{t.id}", "speaker": t.speaker, "text": t.text, "date": t.date,
             "conversation": c.id, **({"turn": int(t.id.split(":")[1])} if numbered else {})}
            for c in dataset.conversations for t in c.turns]


def _questions(dataset) -> list[str]:
    return [q.text for c in dataset.conversations for q in c.questions]


def test_a_speaker_met_later_rereads_the_turns_that_name_them():
    mem = Memory()
    mem.ingest([{"id": "1", "speaker": "Ann", "text": "Thanks, Calvin! The concert was great.", "conversation": "c"}])
    before = mem.store.index.said[0]
    mem.ingest([{"id": "2", "speaker": "Calvin", "text": "Glad you liked it.", "conversation": "c"}])
    assert before != mem.store.index.said[0] and "Calvin" not in mem.store.index.said[0]
    assert mem.store.index.said[0] == unaddressed("Thanks, Calvin! The concert was great.", {"Ann", "Calvin"})
    assert mem.store.index.context[1] == mem.store.index.said[0]  # and the turn replying to it reads it so


def test_a_saved_memory_reopens_as_the_live_one(dataset, tmp_path):
    records = _records(dataset)
    live = Memory()
    with Memory(path=tmp_path / "m.db") as saved:
        for start in range(0, len(records), 100):
            saved.ingest(records[start:start + 100])
            live.ingest(records[start:start + 100])
    with Memory(path=tmp_path / "m.db") as again:
        assert len(again) == len(live)
        for q in _questions(dataset)[::4]:
            assert again.search(q) == live.search(q), q
            assert again.ask(q) == live.ask(q), q
        again.ingest([{"id": "new", "speaker": "Caroline", "text": "I adopted a puppy called Rex.", "conversation": "conv-26"}])
        assert again.search("Who adopted a puppy called Rex?", k=1) == ["new"]
    with Memory(path=tmp_path / "m.db") as third:
        assert third.search("Who adopted a puppy called Rex?", k=1) == ["new"]


def _held(index) -> dict:
    """Everything a live index holds, as plain values (arrays as lists, bit for bit)."""
    p = index.postings
    return {
        "records": index.records, "said": index.said, "terms": index.said_terms, "replied": index.replied,
        "children": {j: sorted(c) for j, c in index.children.items() if c}, "types": {k: g.view().tolist() for k, g in index.types.items()},
        "saved_types": index._saved_types, "spans": index._spans, "days": (index.days.said, index.days.spans),
        "conv": (index.conv_ids, index.conv_of.view().tolist()), "people": index.people, "speakers": index.speakers,
        "by_conv": index.by_conv, "numbered": index.numbered, "last": index.last,
        "order": [list(d) for d in (index.conv_ids, index.people, index.speakers, index.by_conv, index.last)],
        "postings": (p.n, p.total, p.length.view().tolist(),  # by term: a restore numbers terms in sorted order
                     {t: (p.df[j], sorted(x for x in list(zip(p._docs[j].view().tolist(), p._tfs[j].view().tolist()))
                                          + p._tail[j] if x[1]))  # a posting read again to 0 stays, scoring nothing
                      for t, j in p.index.items() if p.df[j]}),
        "vocab": (index.vocab.n, dict(index.vocab.df), {d: c for d, c in index.vocab._by_df.items() if c}),
    }


def test_a_restored_index_holds_exactly_what_the_live_one_held(dataset, tmp_path):
    """Reopening restores column by column (graphmem.index.live.LiveIndex._keep_all) and builds
    the postings in arrays; what it holds must be what ingesting held, in the same order."""
    records = _records(dataset, numbered=True)[:1500] + [
        {"id": "lme-1", "speaker": "user", "text": "I bought a blue kettle last week.", "conversation": "chat", "turn": 1,
         "date": "2023-05-20"},
        {"id": "lme-2", "speaker": "assistant", "text": "A blue kettle sounds lovely.", "conversation": "chat", "turn": 2,
         "date": "2023-05-20"}]
    with Memory(path=tmp_path / "m.db") as saved:
        for start in range(0, len(records), 300):
            saved.ingest(records[start:start + 300])
        live = _held(saved.store.index)
    with Memory(path=tmp_path / "m.db") as again:
        assert _held(again.store.index) == live


@pytest.mark.parametrize("numbered, batch", [(True, 5), (True, 450), (True, 5000), (False, 700)])
def test_a_batch_holds_exactly_what_one_turn_at_a_time_held(dataset, numbered, batch):
    """An ingest of MemoryOptions.batch records or more is indexed column by column
    (LiveIndex._add_batch); it must leave what ingesting its records one at a time leaves, bit
    for bit: shuffled numbered turns (a reply before the turn it answers, speakers met late, in earlier batches too), a
    numbered turn said twice, and an exchange with an assistant."""
    records = _records(dataset, numbered=numbered)
    if numbered:
        random.Random(2).shuffle(records)
    records = records[:2400] + [
        {"id": f"lme-{k}", "speaker": who, "text": text, "conversation": "chat", "date": "2023-05-20",
         **({"turn": turn} if numbered else {})}
        for k, (who, text, turn) in enumerate([("user", "I bought a blue kettle last week.", 1),
                                               ("assistant", "A blue kettle sounds lovely, user!", 2),
                                               ("user", "Thanks, assistant. It was 30 dollars.", 3),
                                               ("user", "I bought a blue kettle last week, for tea.", 1)])]
    one = Memory()
    for r in records:
        one.ingest([r])
    many = Memory(options=MemoryOptions(batch=min(batch, 64)))  # every ingest column by column
    for start in range(0, len(records), batch):
        many.ingest(records[start:start + batch])
    assert _held(many.store.index) == _held(one.store.index)


def test_a_batch_of_weights_no_float32_holds_holds_them_as_one_turn_at_a_time_did(dataset):
    """A reply field weighted 0.5 + 2**-30 gives term frequencies no float32 holds: a batch's
    postings must keep them as float64, as appending them one turn at a time does. (A dyadic weight:
    its sums are exact in float64, as the default weights' are; one such as 0.3 makes the lengths'
    total depend on the order of its additions, in its last bits.)"""
    weight = 0.5 + 2**-30
    records = _records(dataset, numbered=True)[:600]
    one = Memory(options=MemoryOptions(context_weight=weight))
    for r in records:
        one.ingest([r])
    many = Memory(options=MemoryOptions(context_weight=weight, batch=64))
    for start in range(0, len(records), 200):
        many.ingest(records[start:start + 200])
    assert _held(many.store.index) == _held(one.store.index)
    p = many.store.index.postings
    assert any(w.view().dtype == np.float64 for w in p._tfs)  # some term holds a weight no float32 holds


def test_bad_records_leave_a_saved_memory_as_it_was(tmp_path):
    with Memory(path=tmp_path / "m.db") as mem:
        mem.ingest([{"id": "a", "speaker": "Ann", "text": "I like tea."}])
        with pytest.raises(DataError, match="record 1.*missing 'speaker'"):
            mem.ingest([{"id": "b", "speaker": "Bob", "text": "Me too."}, {"id": "c", "text": "no speaker"}])
        with pytest.raises(DataError, match="record 0 \\(id 'a'\\): the memory holds id 'a' already, with other content"):
            mem.ingest([{"id": "a", "speaker": "Bob", "text": "again"}])
    with Memory(path=tmp_path / "m.db") as mem:
        assert [r.id for r in list(mem.turns())] == ["a"]


def test_a_second_opener_gets_one_clear_error(tmp_path):
    path = tmp_path / "m.db"
    with Memory(path=path) as mem:
        mem.ingest([{"id": "a", "speaker": "Ann", "text": "I like tea."}])
        code = f"from graphmem import Memory\nMemory(path={str(path)!r})"
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env=dict(os.environ, PYTHONPATH=str(REPO)))
        assert done.returncode != 0 and "MemoryFileInUse" in done.stderr and "open for writing elsewhere" in done.stderr
        with pytest.raises(MemoryFileInUse):
            Memory(path=path)
    with Memory(path=path) as mem:  # closed: the next opener has it
        assert len(mem) == 1


def test_a_file_that_is_not_a_memory_is_refused(tmp_path):
    path = tmp_path / "x.db"
    path.write_text("not sqlite at all" * 100)
    with pytest.raises(DataError, match="x.db: not a graphmem memory file"):
        Memory(path=path)


_KILLED = """
import sys, time
from graphmem import Memory
from graphmem.claims.replies import unaddressed
mem = Memory(path=sys.argv[1])
mem.ingest([{"id": "seed", "speaker": "Ann", "text": "I like tea.", "conversation": "c"}])
print("seeded", flush=True)
batch = [{"id": f"t{i}", "speaker": "Bob" if i % 2 else "Ann", "text": f"turn {i} about hiking and tea", "conversation": "c"}
         for i in range(200000)]
mem.ingest(batch)
print("done", flush=True)
"""


def test_a_process_killed_mid_ingest_loses_only_that_ingest(tmp_path):
    path = tmp_path / "m.db"
    proc = subprocess.Popen([sys.executable, "-c", _KILLED, str(path)], stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert proc.stdout.readline().strip() == "seeded"
    time.sleep(1.5)  # well inside the big ingest (it takes many seconds)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    with Memory(path=path) as mem:
        assert [r.id for r in list(mem.turns())] == ["seed"]
        assert mem.search("tea", k=1) == ["seed"]


def test_one_thread_ingests_while_others_search():
    mem = Memory()
    mem.ingest([{"id": "0", "speaker": "Ann", "text": "I went hiking in the Alps.", "conversation": "c"}])
    errors: list[BaseException] = []

    def search() -> None:
        try:
            for _ in range(200):
                assert mem.search("Who went hiking?", k=1)
        except BaseException as e:  # noqa: BLE001 (reported below)
            errors.append(e)

    threads = [threading.Thread(target=search) for _ in range(3)]
    for t in threads:
        t.start()
    for i in range(1, 300):
        mem.ingest([{"id": str(i), "speaker": "Bob" if i % 2 else "Ann", "text": f"turn {i} on the lake", "conversation": "c"}])
    for t in threads:
        t.join()
    assert not errors and len(mem) == 300


def test_a_closed_memory_refuses_work_and_a_refused_open_keeps_no_lock(tmp_path):
    path = tmp_path / "m.db"
    mem = Memory(path=path)
    mem.ingest([{"id": "a", "speaker": "Ann", "text": "I like tea."}])
    mem.close()
    with pytest.raises(MisuseError, match="was closed"):
        mem.ingest([{"id": "b", "speaker": "Bob", "text": "Me too."}])
    with pytest.raises(MisuseError, match="was closed"):
        mem.search("tea")
    with pytest.raises(DataError, match="saved with settings"):
        Memory(path=path, options=MemoryOptions(context_reach=3))
    with Memory(path=path) as again:  # the refused opener released the file
        assert [r.id for r in list(again.turns())] == ["a"]


def test_asked_on_lets_a_relative_date_find_that_days_turns_in_every_index(tmp_path):
    """"10 days ago" names a day only as of when it is asked: the live index, the bulk one and a
    saved memory all find that day's turns given ``asked_on``, and none without it."""
    turns = [{"id": "b", "speaker": "user", "text": "I bought soap.", "date": "2023/03/20 (Mon) 10:00"},
             {"id": "a", "speaker": "user", "text": "I bought a blender this morning.", "date": "2023/03/15 (Wed) 10:00"},
             {"id": "c", "speaker": "user", "text": "Yesterday I bought a new toaster.", "date": "2023/03/16 (Thu) 09:00"}]
    turns += [{"id": f"f{i}", "speaker": "user", "text": f"Filler number {i}.", "date": f"2023-03-0{i}"} for i in range(1, 7)]
    q = "What appliance did I buy 10 days ago?"
    mem = Memory()
    mem.ingest(turns)
    assert mem.search(q) == ["b", "a", "c"]  # "buy" alone: the shortest turn first
    for when in ("2023/03/25 (Sat) 18:26", "2023-03-25", date(2023, 3, 25), datetime(2023, 3, 25, 18, 26)):
        assert mem.search(q, asked_on=when) == ["a", "c", "b"], when  # said that day, or "yesterday" the day after
    with Memory(path=tmp_path / "m.db") as saved:
        saved.ingest(turns)
    with Memory(path=tmp_path / "m.db") as saved:
        assert saved.search(q, asked_on="2023-03-25") == ["a", "c", "b"]
    assert mem.ask(q, asked_on="2023-03-25").cited[0] == "a"
    with pytest.raises(DataError, match="asked_on must be"):
        mem.search(q, asked_on=20230325)
    with pytest.raises(DataError, match="asked_on: cannot read the date 'soon'"):
        mem.search(q, asked_on="soon")


def test_asked_on_changes_only_questions_with_relative_dates(dataset):
    """As of a day inside the data, a question without a relative date searches as without a
    moment, less the turns said after that day (nothing said later is found); some with one ("last
    week") search otherwise. (The store's search: the update rules, which the moment also moves,
    are tested in test_updates.py.)"""
    mem = Memory(options=MemoryOptions(updates=False))
    mem.ingest(_records(dataset)[:3000])
    moment = datetime(2023, 6, 12, 9, 30)
    until = datetime(2023, 6, 12, 23, 59, 59, 999999)  # the day asked counts whole (index.query.said_until)
    changed = 0
    for q in _questions(dataset)[:300]:
        dated = mem.search(q, asked_on=moment)
        plain = [t.id for t in mem.records_for(q, k=3000) if t.date is None or t.date <= until][:5]
        assert all(t.date <= until for t in mem.records_for(q, asked_on=moment)), q
        if not says_when(q):
            assert dated == plain, q
        changed += dated != plain
    assert changed > 0


def test_a_search_within_the_named_persons_conversations_is_the_search_of_every_turn(dataset):
    """The scoped search scores only the named person's turns (or the conversation asked for):
    the same turns as scoring every turn, on LoCoMo's questions, its conversations ingested at
    once (each one run of turns) and a turn at a time, interleaved (scattered turn numbers)."""
    records = _records(dataset)
    interleaved = sorted(records, key=lambda r: (r["id"].split(":")[-1], r["conversation"]))[:3000]
    for feed in ([records], [[r] for r in interleaved]):
        mem = Memory()
        for batch in feed:
            mem.ingest(batch)
        live, scoped = mem.store.index, 0
        for text in _questions(dataset)[::2]:
            q = Query.parse(text)
            within = live._search_within(q, 5, None)
            if within is not None:
                scoped += 1
                assert within == live._search_all(q, 5, None), text  # the same turns, scored alike
            for conv in ("conv-26", "conv-30", "nowhere"):
                assert live._search_within(q, 5, conv) == live._search_all(q, 5, conv), (text, conv)
        assert scoped > len(_questions(dataset)[::2]) // 2
        for kind in live.types.values():  # what a search takes as each turn once, in order
            assert (np.diff(kind.view()) > 0).all()


def test_fewer_than_k_of_the_named_persons_turns_are_followed_by_every_other_turns():
    mem = Memory()
    mem.ingest([{"id": "a1", "speaker": "Ann", "text": "I adopted a puppy last week.", "conversation": "c1"},
                {"id": "b1", "speaker": "Bob", "text": "Nice, a puppy!", "conversation": "c1"},
                {"id": "c1", "speaker": "Cy", "text": "My puppy chewed my shoes.", "conversation": "c2"},
                {"id": "d1", "speaker": "Di", "text": "Puppies chew everything.", "conversation": "c2"}])
    assert mem.store.index._search_within(Query.parse("What puppy did Ann adopt?"), 3, None) is None
    first, second, third = mem.search("What puppy did Ann adopt?", k=3)  # Ann's two, then one of the rest
    assert (first, second) == ("a1", "b1") and third in ("c1", "d1")
    assert mem.search("What puppy did Ann adopt?", k=2) == ["a1", "b1"]


def test_a_new_file_has_large_pages_and_an_old_file_keeps_its_own(tmp_path):
    import sqlite3

    from graphmem.store.sqlite.store import PAGE_SIZE

    def pages(path) -> int:
        db = sqlite3.connect(path)
        try:
            return db.execute("PRAGMA page_size").fetchone()[0]
        finally:
            db.close()

    new, old = tmp_path / "new.db", tmp_path / "old.db"
    with Memory(path=new) as mem:
        mem.ingest([{"id": "a", "speaker": "Ann", "text": "I adopted a dog."}])
    with Memory(path=old) as mem:
        mem.ingest([{"id": "a", "speaker": "Ann", "text": "I adopted a dog."}])
    db = sqlite3.connect(old)  # the file's pages made SQLite's default, as earlier versions made them
    db.execute("PRAGMA journal_mode=DELETE")
    db.execute("PRAGMA page_size=4096")
    db.execute("VACUUM")
    db.close()
    with Memory(path=old) as mem:
        mem.ingest([{"id": "b", "speaker": "Bob", "text": "A puppy!"}])
    with Memory(path=old) as mem:
        assert mem.search("dog", k=1) == ["a"] and len(mem) == 2
    assert pages(new) == PAGE_SIZE == 16384 and pages(old) == 4096


def test_a_person_in_most_conversations_is_searched_over_every_turn():
    """A scope holding more than one turn in SCOPE_SHARE of the memory is not searched alone
    (looking each of its turns up would cost more than reading the postings whole); the same turns."""
    from graphmem.index.live_search import SCOPE_SHARE

    mem = Memory()
    for c in range(12):
        mem.ingest([{"id": f"{c}/{t}", "speaker": "Ann" if t % 2 == 0 else f"Bob{c}", "conversation": f"c{c}",
                     "text": f"the dog ran to the lake number {c} {t}"} for t in range(6)])
    live = mem.store.index
    assert live._search_within(Query.parse("Where did Ann's dog run?"), 5, None) is None  # Ann: every turn's conversation
    assert live._search_within(Query.parse("Where did Bob3's dog run?"), 5, None) is not None  # one conversation of 12
    assert 12 > SCOPE_SHARE
    for q in ("Where did Ann's dog run?", "Where did Bob3's dog run?", "Which lake?"):
        assert mem.search(q) == [live.records[i].id for i, _ in live._search_all(Query.parse(q), 5, None)], q
