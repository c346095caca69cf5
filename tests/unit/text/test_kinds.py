"""graphmem.text.kinds: the cohyponym swap test, on a hand-made noun hierarchy.

The rule flags a question only when it asks about a thing of the same kind as one the found turn
names and does not name itself: football after baseball, goats after cows. It must not flag a kind
and its instance (a dog after a poodle), two things whose only common kind is generic (animal),
a word that is mainly a verb, or the turn's own word in another form (goats / goat).
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field

from graphmem.domain import Turn
from graphmem.text import kinds as cohyponyms
from tests.conftest import REPO



@dataclass(eq=False)
class Lemma:
    tagged: int

    def count(self) -> int:
        return self.tagged


@dataclass(eq=False)
class Synset:
    """A sense: its part of speech, its depth from the root, its hypernyms, how often it is tagged."""

    name: str
    kind: str = "n"
    depth: int = 0
    parents: list["Synset"] = field(default_factory=list)
    tagged: int = 1

    def pos(self) -> str:
        return self.kind

    def hypernyms(self) -> list["Synset"]:
        return self.parents

    def instance_hypernyms(self) -> list["Synset"]:
        return []

    def min_depth(self) -> int:
        return self.depth

    def lemmas(self) -> list[Lemma]:
        return [Lemma(self.tagged)]

    def closure(self, relation):  # noqa: ANN001, ANN201
        seen, todo = [], list(relation(self))
        while todo:
            s = todo.pop()
            if s not in seen:
                seen.append(s)
                todo += relation(s)
        return seen


class WordNet:
    """The four calls the rule makes of ``nltk.corpus.wordnet``, over a few hand-made senses."""

    NOUN, VERB, ADJ, ADV = "n", "v", "a", "r"

    def __init__(self) -> None:
        animal = Synset("animal", depth=5)
        game = Synset("game", depth=5)
        field_game = Synset("field_game", depth=6, parents=[game])
        livestock = Synset("livestock", depth=6, parents=[animal])
        canine = Synset("canine", depth=6, parents=[animal])
        dog = Synset("dog", depth=7, parents=[canine])
        self.senses: dict[str, list[Synset]] = {
            "football": [Synset("football", depth=7, parents=[field_game])],
            "baseball": [Synset("baseball", depth=7, parents=[field_game])],
            "cow": [Synset("cow", depth=7, parents=[livestock])],
            "goat": [Synset("goat", depth=7, parents=[livestock])],
            "dog": [dog],
            "cat": [Synset("cat", depth=6, parents=[animal])],
            "poodle": [Synset("poodle", depth=8, parents=[dog])],
            "wolf": [Synset("wolf", depth=7, parents=[canine])],
            "match": [Synset("match", depth=7, parents=[field_game], tagged=1),
                      Synset("match", kind="v", tagged=20)],
        }

    def morphy(self, word: str, pos: str) -> str | None:
        for base in (word, word[:-1] if word.endswith("s") else word):
            if any(s.pos() == pos for s in self.senses.get(base, [])):
                return base
        return None

    def synsets(self, word: str, pos: str | None = None) -> list[Synset]:
        return [s for s in self.senses.get(word, []) if pos is None or s.pos() == pos]

    def lemmas(self, word: str, pos: str) -> list[Lemma]:
        return [lemma for s in self.synsets(word, pos) for lemma in s.lemmas()]


def rule() -> object:
    return cohyponyms.Cohyponyms(WordNet(), senses=1, hops=2, depth=6)


def test_a_thing_of_the_same_kind_swapped_in_is_flagged() -> None:
    assert rule().swapped_in("How many goats did I buy?", "I bought three cows last spring.") == "goats/cows"
    assert rule().swapped_in("How many football games did I play?", "I played baseball every week.") == "football/baseball"


def test_the_same_thing_in_another_form_is_not_a_swap() -> None:
    assert rule().swapped_in("How many goats did I buy?", "I bought a goat and three cows.") is None


def test_a_kind_and_its_instance_are_not_a_swap() -> None:
    assert rule().swapped_in("What is my dog called?", "My poodle is called Rex.") is None  # canine above both
    assert rule().swapped_in("What is my wolf called?", "My poodle is called Rex.") == "wolf/poodle"


def test_things_alike_only_in_a_generic_kind_are_not_a_swap() -> None:
    assert rule().swapped_in("What is my cat called?", "My dog is called Rex.") is None  # only "animal", depth 5
    loose = cohyponyms.Cohyponyms(WordNet(), senses=1, hops=2, depth=5)
    assert loose.swapped_in("What is my cat called?", "My dog is called Rex.") == "cat/dog"


def test_a_word_that_is_mainly_a_verb_is_not_read_as_a_noun() -> None:
    assert not rule().nouny("match")  # tagged 20 times a verb, once a noun
    assert rule().swapped_in("Who won the match?", "We played baseball.") is None


def test_a_shared_kind_further_up_than_hops_is_not_read() -> None:
    near = cohyponyms.Cohyponyms(WordNet(), senses=1, hops=1, depth=6)
    assert near.related("cow", "goat")  # livestock, one level up
    assert not cohyponyms.Cohyponyms(WordNet(), senses=1, hops=1, depth=5).related("cow", "dog")  # animal is two up
    assert cohyponyms.Cohyponyms(WordNet(), senses=1, hops=2, depth=5).related("cow", "dog")


def test_a_flagged_question_is_put_below_every_unflagged_one() -> None:
    spec = importlib.util.spec_from_file_location("longmemeval_confidence", REPO / "bench" / "longmemeval_confidence.py")
    confidence = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(confidence)
    told = Turn(id="t1", speaker="user", text="I bought three cows last spring.", date=None, conversation="s1", number=0)
    sure = {"top1": 1.0, "dense10": 0.95}
    unsure = {"top1": 0.0, "dense10": -1.0}
    assert confidence.kind(rule(), "How many goats did I buy?", [told], sure) == "goats/cows"
    assert confidence.kind(rule(), "How many cows did I buy?", [told], unsure) is None
    assert sure["top1+kind"] < unsure["top1+kind"] and sure["dense10+kind"] < unsure["dense10+kind"]
    assert confidence.kind(rule(), "How many goats did I buy?", [], {"top1": 0.0}) is None
