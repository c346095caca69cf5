"""The memory's settings, one frozen object per concern, composed by ``MemoryOptions``; the flat
names programs already write (``MemoryOptions(updates=False)``, ``options.reader``) still mean
the same settings."""

from __future__ import annotations

import dataclasses

import pytest

from graphmem.index.options import (FLAT, ConfidenceSettings, IndexSettings, MemoryOptions, ReplySettings,
                                    UpdateSettings)
from graphmem.memory.api import Memory
from graphmem.memory.updates import Rules

OLD_NAMES = ["unaddressed", "speaker", "context", "context_weight", "context_reach", "answer_types", "spans", "k1",
             "b", "dense_context", "dense_weight", "dense_engine", "shape", "asker", "reader", "phrase", "batch",
             "sure_unseen", "meaning_turns", "meaning_kinds", "conversation_turns", "conversation_rest", "updates",
             "updates_window", "updates_cover", "updates_floor", "updates_depth", "updates_value_cover",
             "updates_value_floor"]
"""The 29 fields of the one flat object the settings were before they were split by concern."""


def test_every_flat_name_is_one_concerns_setting():
    assert sorted(FLAT) == sorted(OLD_NAMES)
    concerns = {"index": IndexSettings, "reply": ReplySettings, "confidence": ConfidenceSettings,
                "rules": UpdateSettings}
    for name, (concern, setting) in FLAT.items():
        assert setting in {f.name for f in dataclasses.fields(concerns[concern])}, name
    assert sum(len(dataclasses.fields(kind)) for kind in concerns.values()) == len(OLD_NAMES)


def test_flat_names_build_and_read_the_concerns():
    o = MemoryOptions(updates=False, updates_window=7, k1=0.9, reader="extractive", meaning_turns=3)
    assert o.rules == UpdateSettings(on=False, window=7)
    assert o.index == IndexSettings(k1=0.9) and o.reply == ReplySettings(reader="extractive")
    assert o.confidence == ConfidenceSettings(meaning_turns=3)
    assert (o.updates, o.updates_window, o.k1, o.reader, o.meaning_turns) == (False, 7, 0.9, "extractive", 3)
    assert o == MemoryOptions(index=IndexSettings(k1=0.9), reply=ReplySettings(reader="extractive"),
                              confidence=ConfidenceSettings(meaning_turns=3), rules=UpdateSettings(on=False, window=7))
    assert MemoryOptions(index=IndexSettings(k1=0.9), b=0.3).index == IndexSettings(k1=0.9, b=0.3)  # flat over given
    assert dataclasses.replace(o, context=False).index == IndexSettings(k1=0.9, context=False)
    assert hash(MemoryOptions()) == hash(MemoryOptions()) and MemoryOptions() == MemoryOptions()


def test_settings_are_frozen_and_a_misspelt_name_is_refused():
    for settings in (MemoryOptions(), IndexSettings(), ReplySettings(), ConfidenceSettings(), UpdateSettings()):
        with pytest.raises(dataclasses.FrozenInstanceError):
            settings.k1 = 2.0  # type: ignore[misc]
    with pytest.raises(TypeError, match="'kone'"):
        MemoryOptions(kone=0.9)
    with pytest.raises(AttributeError):
        MemoryOptions().kone  # noqa: B018


def test_the_flat_record_a_saved_memory_keeps_is_the_old_objects():
    """A memory file's snapshot records the settings it was made under by their flat names; the
    record of the shipped settings is what the one flat object gave, so a file saved before reads."""
    flat = MemoryOptions().flat()
    assert list(flat) == list(FLAT) and set(flat) == set(OLD_NAMES)
    assert flat["updates"] is True and flat["k1"] == 1.2 and flat["answer_types"] == ("when", "how long")


def test_each_part_of_the_memory_reads_its_own_concern():
    o = MemoryOptions(k1=0.9, updates_window=7)
    mem = Memory(options=o)
    mem.ingest([{"id": "a", "speaker": "Ann", "text": "I adopted a dog."}])
    index = mem.store.index
    assert index.settings is o.index and index.postings.k1 == 0.9
    assert Rules.of(o).window == 7
