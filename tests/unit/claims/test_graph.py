"""The graph built from a reading: its shape, the one rule, the blind control, and reach."""

from __future__ import annotations

from datetime import datetime

import networkx as nx

from graphmem.claims import graph
from graphmem.data import locomo
from graphmem.claims.extract import extract
from graphmem.claims.records import pieces
from graphmem.domain import Conversation, Session, Turn

DAY = datetime(2023, 5, 8, 13, 56)


def conversation(*lines: tuple[str, str], speakers=("Caroline", "Melanie")) -> Conversation:
    turns = tuple(Turn(f"D1:{i + 1}", who, text, DAY, session=1) for i, (who, text) in enumerate(lines))
    return Conversation("conv-test", speakers, (Session(1, DAY, "", turns),), {t.id: t for t in turns})


def built(*lines, **kw):
    r = extract(conversation(*lines, **kw))
    return r, graph.build(r)


def kinds(g: nx.MultiDiGraph, kind: str) -> list:
    return [n for n, d in g.nodes(data=True) if d["kind"] == kind]


def edge_kinds(g: nx.MultiDiGraph) -> list[str]:
    return sorted(k for _, _, k in g.edges(keys=True))


# --------------------------------------------------------------------------- build


def test_build_counts_nodes_and_edges_by_kind():
    r, g = built(
        ("Caroline", "I went to the beach with Melanie."),  # 1 claim, mentions melanie
        ("Melanie", "You took great photos! How was it?"),  # 1 claim about caroline; the question none
        ("Caroline", "Thanks! I loved it."),  # "Thanks!" is an interjection: 1 claim
    )
    assert len(r.claims) == 3
    assert sorted(kinds(g, "person")) == [("person", "caroline"), ("person", "melanie")]
    assert len(kinds(g, "assertion")) == 3
    assert sorted(kinds(g, "turn")) == [("turn", "D1:1"), ("turn", "D1:2"), ("turn", "D1:3")]
    assert g.number_of_nodes() == 2 + 3 + 3
    # 3 about + 3 from + 1 mentions
    assert edge_kinds(g) == ["about"] * 3 + ["from"] * 3 + ["mentions"]
    assert g.number_of_edges() == 7


def test_edges_run_person_to_assertion_to_person_and_turn():
    _, g = built(("Caroline", "I went to the beach with Melanie."))
    (a,) = kinds(g, "assertion")
    assert set(g.in_edges(a, keys=True)) == {(("person", "caroline"), a, "about")}
    assert set(g.out_edges(a, keys=True)) == {
        (a, ("person", "melanie"), "mentions"),
        (a, ("turn", "D1:1"), "from"),
    }
    for _, _, k, d in g.edges(keys=True, data=True):
        assert d["kind"] == k
    assert graph.subject_of(g, a) == "caroline"
    assert graph.mentioned_by(g, a) == ["melanie"]
    assert graph.assertions_of(g, "melanie") == [a]
    assert graph.assertions_of(g, "melanie", mentioned=False) == []


def test_node_attributes_are_plain_scalars():
    _, g = built(("Caroline", "I don't eat dairy."))
    (a,) = kinds(g, "assertion")
    d = g.nodes[a]
    assert (d["predicate"], d["object"], d["negated"], d["dia_id"], d["derived"]) == ("eat", "dairy", True, "D1:1", False)
    assert d["date"] == "2023-05-08T13:56:00" and d["sentence"] == "I don't eat dairy."
    assert g.nodes[("person", "caroline")] == {"kind": "person", "name": "Caroline", "speaker": True, "human": True}
    assert g.nodes[("turn", "D1:1")]["speaker"] == "caroline"
    for _, attrs in g.nodes(data=True):
        assert all(isinstance(v, (str, bool, int)) for v in attrs.values())


def test_third_parties_are_person_nodes():
    _, g = built(("Melanie", "My son Max loves dinosaurs."))
    assert g.nodes[("person", "max")] == {"kind": "person", "name": "Max", "speaker": False, "human": True}
    about_max = graph.assertions_of(g, "max", mentioned=False)
    assert [g.nodes[a]["predicate"] for a in about_max] == ["love"]


def test_a_named_pet_keeps_its_node_and_claims_but_is_no_person():
    _, g = built(("Melanie", "I adopted a dog called Rex."), ("Caroline", "My friend Jenna loves dogs."),
                 ("Melanie", "Rex loves the park."))
    assert g.nodes[("person", "rex")]["human"] is False and g.nodes[("person", "jenna")]["human"] is True
    assert [g.nodes[a]["predicate"] for a in graph.assertions_of(g, "rex", mentioned=False)] == ["love"]


# --------------------------------------------------------------------------- reason


def derived(g):
    return [
        (graph.subject_of(g, a), d["predicate"], d["object"], graph.mentioned_by(g, a), d["dia_id"])
        for a, d in g.nodes(data=True)
        if d.get("derived")
    ]


def test_reason_what_a_thing_is_called_its_owner_has():
    _, g = built(
        ("Melanie", "I got a puppy two weeks ago! Her name is Coco."),  # owns + named in one turn
        ("Caroline", "Oscar, my guinea pig, is adorable."),  # possessive: owned by saying so
        ("Caroline", "My friend Jenna came over."),  # "my friend" is called Jenna
    )
    assert graph.reason(g) == 3
    assert sorted(derived(g)) == [
        ("caroline", "have", "Jenna", ["jenna"], "D1:3"),
        ("caroline", "have", "Oscar", ["oscar"], "D1:2"),
        ("melanie", "have", "Coco", ["coco"], "D1:1"),
    ]
    assert graph.reason(g) == 0  # nothing more to derive
    assert graph.census(conversation(), extract(conversation()), g)["derived"] == 3


def test_reason_derives_nothing_already_said_or_unowned():
    _, g = built(
        ("Melanie", "We got another cat named Bailey too."),  # already states the having
        ("Caroline", "I met someone named David."),  # nobody owns "someone"
        ("Caroline", "Her name is Luna."),  # named, but owned by no one in that turn
        ("Caroline", "I'll call her tomorrow."),  # the verb, not a naming
    )
    assert graph.reason(g) == 0


def test_reason_adds_well_formed_assertions():
    _, g = built(("Melanie", "I adopted a dog. His name is Rex."))
    before = g.number_of_nodes(), g.number_of_edges()
    assert graph.reason(g) == 1
    assert (g.number_of_nodes(), g.number_of_edges()) == (before[0] + 1, before[1] + 3)
    (a,) = [n for n, d in g.nodes(data=True) if d.get("derived")]
    assert sorted(k for *_, k in g.in_edges(a, keys=True)) == ["about"]
    assert sorted(k for *_, k in g.out_edges(a, keys=True)) == ["from", "mentions"]


# --------------------------------------------------------------------------- empty, census


def test_empty_removes_everything():
    _, g = built(("Caroline", "I went to the beach with Melanie."))
    assert g.number_of_nodes() > 0
    same = graph.empty(g)
    assert same is g and g.number_of_nodes() == 0 and g.number_of_edges() == 0
    assert graph.turns_within(g, "caroline", 2) == set()
    assert graph.reason(g) == 0


def test_census():
    conv = conversation(("Caroline", "I went to the beach with Melanie."), ("Melanie", "Cool!"))
    r = extract(conv)
    g = graph.build(r)
    assert graph.census(conv, r, g) == {
        "turns": 2,
        "claims": len(r.claims),
        "nodes": g.number_of_nodes(),
        "edges": g.number_of_edges(),
        "derived": 0,
    }


def test_turns_within_hops():
    _, g = built(
        ("Caroline", "I went to the beach with Melanie."),  # about caroline, mentions melanie
        ("Melanie", "I painted a lake."),  # about melanie only
        ("Caroline", "I love pottery."),
    )
    assert graph.turns_within(g, "caroline", 1) == {"D1:1", "D1:3"}
    assert graph.turns_within(g, "melanie", 1) == {"D1:1", "D1:2"}
    assert graph.turns_within(g, "melanie", 2) == {"D1:1", "D1:2", "D1:3"}
    assert graph.turns_within(g, "nobody", 2) == set()


# --------------------------------------------------------------------------- reach on real data


def test_reach_shape_on_the_first_two_conversations(locomo_path):
    """One hop from the named node reaches most answerable evidence and a minority of the
    adversarial; two hops reach most of the adversarial -- the trap those questions set."""
    ds = locomo.load_dataset(locomo_path)
    acc: dict[tuple[bool, int], list[float]] = {}
    for conv in ds.conversations[:2]:
        r = extract(conv)
        g = graph.build(r)
        walked: dict[tuple[str, int], set[str]] = {}
        for q in conv.questions:
            who = r.people.resolve(q.text)
            if who is None or not q.evidence:
                continue
            for hops in (1, 2):
                if (who, hops) not in walked:
                    walked[(who, hops)] = graph.turns_within(g, who, hops)
                reached = walked[(who, hops)]
                share = sum(e in reached for e in q.evidence) / len(q.evidence)
                acc.setdefault((q.answerable, hops), []).append(share)
    mean = {k: sum(v) / len(v) for k, v in acc.items()}
    assert mean[(True, 1)] > 0.5
    assert mean[(False, 1)] < 0.5
    assert mean[(False, 2)] > 0.5


def test_piece_reach_separates_answerable_from_adversarial(locomo_path):
    ds = locomo.load_dataset(locomo_path)
    answerable, adversarial = [], []
    for conv in ds.conversations[:2]:
        r = extract(conv)
        have = {(p.dia_id, p.person) for p in pieces(r)}
        for q in conv.questions:
            who = r.people.resolve(q.text)
            if who is None or not q.evidence:
                continue
            share = sum((e, who) in have for e in q.evidence) / len(q.evidence)
            (answerable if q.answerable else adversarial).append(share)
    assert sum(answerable) / len(answerable) > 0.8
    assert sum(adversarial) / len(adversarial) < 0.35
