"""LoCoMo's evidence ids, normalised: joined ids split, stray colons repaired, and ids that
name no turn dropped *with a report*, never silently.

Each raw evidence entry is stripped and split on ``;``, ``,`` and whitespace, and a
stray colon after the ``D`` is removed (``D:11:26`` -> ``D11:26``). An entry that had
to be rewritten this way counts as **one repair**, however many ids it yields (so
``"D8:6; D9:17"`` is one repair yielding two ids). Every resulting id that is
malformed (``D``) or names no turn of its conversation (``D10:19`` in conv-42,
``D30:05`` in conv-50: leading zeros are *not* guessed away) is **dropped and
reported**, one report line per id. Ids repeated within one question are kept once.
What this gives on ``locomo10.json`` is the first line ``graphmem bench`` prints (docs/locomo.md,
"The result").
"""

from __future__ import annotations

import re
from collections.abc import Container
from dataclasses import dataclass, field
from typing import NamedTuple

__all__ = ["DIA_ID", "EvidenceFix", "EvidenceReport", "normalise_evidence"]

DIA_ID = re.compile(r"D(\d+):(\d+)$")
"""A well-formed dialogue id: ``D<session>:<turn>``."""
_SPLIT = re.compile(r"[;,\s]+")


class EvidenceFix(NamedTuple):
    """One line of the evidence report.

    For a repair ``result`` is the ids the raw entry became, space-joined; for a drop it
    is the reason (``"malformed"`` or ``"names no turn"``) and ``raw`` is the dropped id.
    """

    sample_id: str
    question: int
    raw: str
    result: str


@dataclass
class EvidenceReport:
    """What evidence normalisation changed: repaired entries and ids that were dropped.

    ``repaired`` has one item per raw evidence entry that had to be rewritten (split,
    stripped or de-coloned); ``dropped`` has one item per id that is malformed or names
    no turn. See the module docstring for the exact rules.
    """

    repaired: list[EvidenceFix] = field(default_factory=list)
    dropped: list[EvidenceFix] = field(default_factory=list)

    def summary(self) -> str:
        """One line: ``evidence: N ids repaired, M dropped ('D' in conv-42 qa[88]: malformed, ...)``."""
        dropped = ", ".join(f"{raw!r} in {sid} qa[{j}]: {why}" for sid, j, raw, why in self.dropped)
        line = f"evidence: {len(self.repaired)} ids repaired, {len(self.dropped)} dropped"
        return f"{line} ({dropped})" if dropped else line

    def lines(self) -> list[str]:
        """Every repair and drop, one per line, for verbose output."""
        out = [f"repaired {sid} qa[{j}]: {raw!r} -> {res}" for sid, j, raw, res in self.repaired]
        out += [f"dropped {sid} qa[{j}]: {raw!r} ({why})" for sid, j, raw, why in self.dropped]
        return out


def normalise_evidence(
    sid: str, j: int, raw: list[str], by_id: Container[str], report: EvidenceReport
) -> tuple[str, ...]:
    """Split joined ids, repair ``D:11:26``, and drop (with a report) ids naming no turn.

    An entry that is not already a single well-formed id but yields at least one
    well-formed id counts as one repair. Every id that is malformed or names no turn in
    ``by_id`` is dropped and reported. Duplicates within one question are kept once.
    """
    out: list[str] = []
    for item in raw:
        if item in by_id:  # the common case: already a valid id
            if item not in out:
                out.append(item)
            continue
        parts = [re.sub(r"^D:", "D", p) for p in _SPLIT.split(item) if p]
        wellformed = [p for p in parts if DIA_ID.match(p)]
        if wellformed and wellformed != [item]:
            report.repaired.append(EvidenceFix(sid, j, item, " ".join(wellformed)))
        if not parts:
            report.dropped.append(EvidenceFix(sid, j, item, "malformed"))
        for p in parts:
            if not DIA_ID.match(p):
                report.dropped.append(EvidenceFix(sid, j, p, "malformed"))
            elif p not in by_id:
                report.dropped.append(EvidenceFix(sid, j, p, "names no turn"))
            elif p not in out:
                out.append(p)
    return tuple(out)
