"""Fit the calibrated confidence ``Memory(confidence="calibrated")`` ships, and report it out of fold.

    python bench/fit_confidence.py [--write [--meaning]] [--e5] [--only KIND] [--lme FILE] [--locomo FILE] [--fresh]
                                   [--folds 5] [--seed 0]

The rows are ``bench/confidence_rows.py``'s (cached): LongMemEval's development half (250 questions,
15 ``_abs``) and LoCoMo (1,986 questions, 446 adversarial), each with the signals
:func:`graphmem.memory.calibrated.features` reads and whether the question is answerable. The model
has a head per shape of exchange (an assistant speaks: LongMemEval; people talking: LoCoMo), each
scikit-learn's logistic regression over standardised signals, then optionally an isotonic calibration
fitted on cross-validated predictions. Each head's settings (the regularisation ``C``, the coverage
signals alone or every signal, isotonic or not) are chosen by cross-validation grouped by haystack
(LongMemEval: one question each) and by conversation (LoCoMo), by log loss; its floor is the highest
that keeps at most 15% of its answerable questions quiet (below it, or declined by the reader, which
finds no phrase in about 5% of them whatever the confidence), read off the chosen setting's out-of-fold
predictions. Why two heads: one regression over both read LongMemEval worse than coverage alone
(out-of-fold AUC 0.458, and 0.573 with every signal also multiplied by the shape under one ``C``,
against 0.682: a question asking a date is mostly answerable on LoCoMo and as often not on LongMemEval), and why two floors: the share of unanswerable questions differs (6% and 22%).

What it prints is out of fold only: a nested cross-validation (each head's settings, isotonic map and
floor chosen inside each outer training part, scored on the outer part it never saw): per dataset the
ROC AUC of answerable against unanswerable, the quiet rates at the floor, the expected calibration
error and a reliability table (how often an answer of that confidence was answerable, and how often
its evidence was among the five turns cited), beside the shipped coverage's AUC and quiet rates at
its 0.30. ``--write`` refits on all rows with the settings chosen on all of them and writes
``graphmem/memory/confidence.json`` (numbers only: no pickle).

Where the rows hold the static embedding's signals (:mod:`graphmem.memory.sense`: the ``dense`` extra is
installed), the same is printed a second time for the meaning heads, whose settings may also read them;
``--write --meaning`` ships those heads too. They are not shipped: out of fold they did no better than the
lexical ones (docs/longmemeval.md, "Meaning signals"). With ``--e5`` the rows also hold e5's cosines over the
turns found (``bench/confidence_e5.py``, cached) and the e5 heads are printed and, with ``--write``, shipped:
``Memory(confidence="calibrated+e5")`` reads them (docs/confidence.md).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
from sklearn.isotonic import IsotonicRegression
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss, roc_auc_score
from sklearn.model_selection import StratifiedGroupKFold

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import confidence_e5  # noqa: E402
import confidence_rows  # noqa: E402
from graphmem.memory.calibrated import FEATURES  # noqa: E402
from graphmem.memory.sense import E5, MEANING  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "graphmem/memory/confidence.json"
QUIET_ANSWERABLE = 0.15
"""The most answerable questions a head's floor may keep quiet (the issue's bar)."""
SETS = {"coverage": ("cover", "known", "unseen", "best5", "gap", "union5", "terms"),
        "asked": ("cover", "gap", "typed", "stated5", "names_unseen", "unseen"),
        "all": tuple(n for n in FEATURES if n != "assisted")}
SETS |= {f"{n}+meaning": v + MEANING for n, v in list(SETS.items())} \
    | {f"{n}+e5": v + E5 for n, v in list(SETS.items())}
"""The signals a head may read: the coverage family alone; the few the issue names (coverage, the gap,
whether the kind of value asked is stated, names the memory never heard of: ``asked``, a set small enough
for LongMemEval's 15 unanswerable questions); or every signal (the head is the shape);
the meaning heads (rows read where the ``dense`` extra is installed) may add the static embedding's."""
KINDS = {"lexical": ("coverage", "asked", "all"), "meaning": ("coverage", "all", "coverage+meaning", "all+meaning"),
         "e5": ("coverage", "asked", "all", "asked+e5", "all+e5")}
"""The models: the lexical heads (no embedding installed), the meaning heads (the static vectors'
signals) and the e5 heads (``--e5``: e5's cosines over the turns found, ``bench/confidence_e5.py``)."""


@dataclass(frozen=True)
class Setting:
    c: float
    signals: str
    isotonic: bool


def grid(sets: tuple[str, ...]) -> list[Setting]:
    return [Setting(*s) for s in itertools.product((0.03, 0.1, 1.0), sets, (False, True))]


def matrix(rows: list[dict], signals: str) -> np.ndarray:
    return np.array([[r["signals"][n] for n in SETS[signals]] for r in rows])


class Model:
    """One setting fitted: standardisation, logistic regression, an isotonic map on inner predictions."""

    def __init__(self, s: Setting, folds: int, seed: int):
        self.s, self.folds, self.seed = s, folds, seed
        self.iso: IsotonicRegression | None = None

    def fit(self, x: np.ndarray, y: np.ndarray, groups: np.ndarray) -> Model:
        self._fit_lr(x, y)
        if self.s.isotonic:
            raw = np.zeros(len(y))
            for tr, te in _splits(y, groups, self.folds, self.seed + 1):
                raw[te] = Model(replace(self.s, isotonic=False), 0, 0)._fit_lr(x[tr], y[tr]).predict(x[te])
            self.iso = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip").fit(raw, y)
        return self

    def _fit_lr(self, x: np.ndarray, y: np.ndarray) -> Model:
        self.mean, self.scale = x.mean(0), x.std(0)
        self.scale[self.scale == 0] = 1.0
        self.lr = LogisticRegression(C=self.s.c, max_iter=5000).fit((x - self.mean) / self.scale, y)
        return self

    def predict(self, x: np.ndarray) -> np.ndarray:
        p = self.lr.predict_proba((x - self.mean) / self.scale)[:, 1]
        return self.iso.predict(p) if self.iso is not None else p

    def params(self, floor: float) -> dict:
        out = {"setting": asdict(self.s), "features": list(SETS[self.s.signals]), "mean": self.mean.tolist(),
               "scale": self.scale.tolist(), "coef": self.lr.coef_[0].tolist(),
               "intercept": float(self.lr.intercept_[0]), "floor": floor}
        if self.iso is not None:
            out["isotonic"] = {"x": self.iso.X_thresholds_.tolist(), "y": self.iso.y_thresholds_.tolist()}
        return out


def _splits(y: np.ndarray, groups: np.ndarray, folds: int, seed: int, strata: np.ndarray | None = None):  # noqa: ANN202
    return StratifiedGroupKFold(folds, shuffle=True, random_state=seed).split(y, y if strata is None else strata, groups)


def floor_of(p: np.ndarray, y: np.ndarray, declined: np.ndarray) -> float:
    """The highest floor keeping at most 15% of the answerable questions quiet: below it, or declined
    by the reader whatever their confidence (``ask`` is quiet either way)."""
    ok = [f for f in np.unique(p[y == 1]) if np.mean(((p < f) | declined)[y == 1]) <= QUIET_ANSWERABLE]
    return float(max(ok, default=0.0))


def choose(xs: dict[str, np.ndarray], y: np.ndarray, groups: np.ndarray, folds: int,
           seed: int) -> tuple[Setting, np.ndarray]:  # the grid: the sets ``xs`` holds
    """The setting of the grid with the best cross-validated log loss, and its out-of-fold predictions."""
    best: tuple[float, Setting, np.ndarray] | None = None
    splits = list(_splits(y, groups, folds, seed))
    for s in grid(tuple(xs)):
        p = np.zeros(len(y))
        for tr, te in splits:
            p[te] = Model(s, folds, seed).fit(xs[s.signals][tr], y[tr], groups[tr]).predict(xs[s.signals][te])
        got = log_loss(y, np.clip(p, 1e-6, 1 - 1e-6), labels=[0, 1])
        if best is None or got < best[0]:
            best = (got, s, p)
    assert best is not None
    return best[1], best[2]


def head_fit(xs: dict[str, np.ndarray], y: np.ndarray, groups: np.ndarray, declined: np.ndarray, folds: int,
             seed: int) -> tuple[Model, float]:
    """One head: its setting chosen by cross-validation, fitted on every row given, and its floor
    chosen on the chosen setting's out-of-fold predictions."""
    s, inner = choose(xs, y, groups, folds, seed)
    return Model(s, folds, seed).fit(xs[s.signals], y, groups), floor_of(inner, y, declined)


def nested(rows: list[dict], y: np.ndarray, data: np.ndarray, groups: np.ndarray, declined: np.ndarray, folds: int,
           seed: int, kind: str = "lexical") -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Out-of-fold predictions, and the floor each outer fold's head chose inside its training part."""
    xs = {n: matrix(rows, n) for n in KINDS[kind]}
    heads = np.array([bool(r["signals"]["assisted"]) for r in rows])
    p, floors, chosen = np.zeros(len(y)), np.zeros(len(y)), []
    strata = np.array([f"{d}/{v}" for d, v in zip(data, y)])
    for tr, te in _splits(y, groups, folds, seed + 100, strata):
        for h in (True, False):
            a, b = tr[heads[tr] == h], te[heads[te] == h]
            model, floor = head_fit({k: v[a] for k, v in xs.items()}, y[a], groups[a], declined[a], folds, seed)
            chosen.append(f"{'assistant' if h else 'friends'} C={model.s.c} {model.s.signals}"
                          f"{' isotonic' if model.s.isotonic else ''}")
            p[b], floors[b] = model.predict(xs[model.s.signals][b]), floor
    return p, floors, chosen


def ece(p: np.ndarray, y: np.ndarray, bins: int = 10) -> float:
    """Expected calibration error over ``bins`` equal-width bins of the confidence."""
    at = np.minimum((p * bins).astype(int), bins - 1)
    return float(sum(np.sum(at == b) / len(p) * abs(y[at == b].mean() - p[at == b].mean())
                     for b in range(bins) if np.any(at == b)))


def report(name: str, p: np.ndarray, floors: np.ndarray, y: np.ndarray, hit: np.ndarray, cov: np.ndarray,
           covq: np.ndarray, declined: np.ndarray) -> list[str]:
    quiet = (p < floors) | declined  # what ask does: quiet below the floor, or when the reader finds no phrase
    out = [f"{name}: {len(y)} questions, {int(np.sum(y == 0))} unanswerable",
           f"  calibrated  AUC {roc_auc_score(y, p):.3f}  quiet: answerable {quiet[y == 1].mean():.3f}, "
           f"unanswerable {quiet[y == 0].mean():.3f}  (floor {np.min(floors):.3f} to {np.max(floors):.3f})  "
           f"ECE {ece(p, y):.3f}  Brier {np.mean((p - y) ** 2):.3f}",
           f"  coverage    AUC {roc_auc_score(y, cov):.3f}  quiet: answerable {covq[y == 1].mean():.3f}, "
           f"unanswerable {covq[y == 0].mean():.3f}  (floor 0.30)"]
    return out + reliability(p, y, hit)


def reliability(p: np.ndarray, y: np.ndarray, hit: np.ndarray, bins: int = 10) -> list[str]:
    """How often an answer of each confidence was answerable, and had its evidence among those cited."""
    lines = ["  confidence      n   mean  answerable  evidence cited"]
    at = np.minimum((p * bins).astype(int), bins - 1)
    for b in range(bins):
        m = at == b
        if m.any():
            lines.append(f"  {b / bins:.1f}-{(b + 1) / bins:.1f}  {m.sum():6d}  {p[m].mean():.3f}  "
                         f"{y[m].mean():10.3f}  {hit[m].mean():14.3f}")
    return lines


def main() -> None:
    ap = confidence_rows.arguments(argparse.ArgumentParser(description=__doc__.split("\n")[0]))
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--write", action="store_true", help=f"refit on every row and write {OUT.name}")
    ap.add_argument("--meaning", action="store_true",
                    help="--write the meaning heads too (read where the dense extra is installed; not shipped: "
                         "out of fold they did not beat the lexical ones, docs/longmemeval.md)")
    ap.add_argument("--e5", action="store_true", help="also the e5 heads (bench/confidence_e5.py's signals)")
    ap.add_argument("--only", default=None, help="only this kind of heads (lexical, meaning, e5)")
    a = ap.parse_args()
    rows = confidence_rows.rows(a.lme, a.locomo, a.limit, a.fresh)
    if a.e5:
        rows = confidence_e5.with_e5(rows, confidence_rows.name(a.lme, a.locomo, a.limit))
    y = np.array([r["answerable"] for r in rows], dtype=int)
    data, groups = np.array([r["data"] for r in rows]), np.array([f"{r['data']}/{r['group']}" for r in rows])
    hit = np.array([r["hit"] for r in rows], dtype=float)
    cov, covq = np.array([r["coverage"] for r in rows]), np.array([r["quiet"] for r in rows])
    declined = np.array([r["declined"] for r in rows], dtype=bool)
    kinds = [k for k in KINDS if (k == "lexical" or all(n in rows[0]["signals"] for n in SETS[KINDS[k][-1]]))
             and a.only in (None, k)]
    command = "python3 bench/fit_confidence.py --write" + " --e5" * a.e5 + " --meaning" * a.meaning
    out = {"command": command, "heads": {}}
    for kind in kinds:
        p, floors, chosen = nested(rows, y, data, groups, declined, a.folds, a.seed, kind)
        print(f"{kind} heads, out of fold ({a.folds} outer folds, each head choosing its setting and floor by "
              f"{a.folds}-fold CV inside)")
        print("chosen per outer fold: " + "; ".join(chosen))
        for d in ("longmemeval", "locomo"):
            m = data == d
            print("\n".join(report(d, p[m], floors[m], y[m], hit[m], cov[m], covq[m], declined[m])))
        print("both\n" + "\n".join(reliability(p, y, hit)) + f"\n  ECE {ece(p, y):.3f}")
        if a.write and (kind == "lexical" or (kind == "meaning" and a.meaning) or kind == "e5"):
            out["heads"] |= fit_all(rows, y, groups, declined, a.folds, a.seed, kind)
    if a.write:
        OUT.write_text(json.dumps(out, indent=1) + "\n")
        print(f"wrote {OUT}")


def fit_all(rows: list[dict], y: np.ndarray, groups: np.ndarray, declined: np.ndarray, folds: int, seed: int,
            kind: str) -> dict[str, dict]:
    """Each head of ``kind`` fitted on every row, its setting and floor chosen by cross-validation."""
    heads = np.array([bool(r["signals"]["assisted"]) for r in rows])
    xs = {n: matrix(rows, n) for n in KINDS[kind]}
    out = {}
    for name, h in (("assistant", True), ("friends", False)):
        m = heads == h
        model, floor = head_fit({k: v[m] for k, v in xs.items()}, y[m], groups[m], declined[m], folds, seed)
        name += "" if kind == "lexical" else f"+{kind}"
        out[name] = {"rows": int(m.sum()), "unanswerable": int(np.sum(y[m] == 0))} | model.params(round(floor, 3))
        print(f"{name}: C={model.s.c} {model.s.signals} isotonic={model.s.isotonic} floor {floor:.3f}")
    return out

if __name__ == "__main__":
    main()
