"""The consistency audit: where two codes rule alike or differently against what their texts say.

Every generated incident (``compare.incidents_for``) is ruled under both codes. The sentences that
*govern* a ruling are those of the code's sentence account that name a provision that applied; each is
paired with its counterpart in the other code (the most similar sentence of the aligned law,
``compare.align``). Then:

- **different rulings, same text**: the two codes rule the incident differently although every
  governing sentence reads the same in both (spelling set aside, :func:`normalise`);
- **same ruling, different text**: they rule it alike although a governing sentence differs in
  substance (:func:`substance`: more than spelling and the small words of ``laws/consistency.yaml``),
  or has no counterpart.

Each suspect is reported once per (kind, laws that govern it in each code), with both laws quoted and
the smallest incident that shows it. A suspect is *settled* by reading the law: the data is fixed (and
the suspect goes away), or ``laws/consistency.yaml`` records why the difference, or the sameness, stands.
"""

from __future__ import annotations

import difflib
import itertools
import os
from collections import Counter
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping

from .alignment import align
from .factspace import Case, classes
from .errors import InputError, UnknownCodeError, did_you_mean
from .loader import EFFECT_FIELDS, Code, code_ids, load_code, load_kinds
from .resources import laws_dir
from .sentences import _LABEL, Account, load_account
from .values import Ruling
from .textdiff import fold, spelling
from .yamlsrc import Source, load_yaml

__all__ = ["Ref", "Suspect", "Settlement", "AuditReport", "audit_against", "audit_game", "normalise",
           "substance", "same_game_pairs", "load_settlements", "stale_settlements"]

DIFFERENT = "different-ruling"  # the rulings differ, the governing sentences read the same
SAME = "same-ruling"  # the rulings agree, a governing sentence differs in substance
SUSPECT_TYPES = (DIFFERENT, SAME)


# --------------------------------------------------------------------------
# Reading the same


@dataclass(frozen=True)
class _Words:
    spelling: Mapping[str, str]
    substance: frozenset[str]  # stems of the words that carry a rule
    revision: float  # two laws this alike are one text revised


@lru_cache(maxsize=4)
def _words_data(root: str) -> _Words:
    src = _settlement_source(root)
    d = src.data
    from pathlib import Path as _P  # the spelling table is the historian's (laws/spelling.yaml): one for both tools

    table = spelling(_P(root) / "spelling.yaml")
    spelling_groups: dict[str, str] = dict(table.groups)
    words: set[str] = set()
    groups = d.get("substance") or {}
    if not isinstance(groups, dict):
        raise src.error(("substance",), "expected a mapping of groups (roles, modality, time, remedies ...) to "
                                        "lists of words")
    for name, group in groups.items():
        if not isinstance(group, list) or not all(isinstance(w, str) for w in group):
            raise src.error(("substance", name), "expected a list of words")
        words |= {_stem(_fold(w)) for w in group}
    revision = d.get("revision", 0.8)
    if not isinstance(revision, (int, float)) or isinstance(revision, bool) or not 0 < revision <= 1:
        raise src.error(("revision",), f"revision is a similarity between 0 and 1, got {revision!r}")
    return _Words(spelling_groups, frozenset(words), float(revision))


def _stem(word: str) -> str:
    """A word without its inflection (adversaries, adversary; doubled, double; calls, call)."""
    for suffix, repl in (("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: len(word) - len(suffix)] + repl
    return word


_fold = fold  # case, italics, hyphens, quotation marks and punctuation set aside (textdiff)


_FOOTNOTE = re.compile(r"\[\^\w+\]")


def normalise(text: str) -> tuple[str, ...]:
    """The words of a text with spelling set aside: case, italics, punctuation, hyphens, quotation marks,
    footnote marks, and the spellings ``laws/spelling.yaml`` lists as one word (honour, honor; any one,
    anyone) — the table ``bridgelaw diff --ignore spelling`` reads."""
    return _normalise(text, _root())


def _root() -> str:
    """The laws folder (read once per BRIDGELAW_DATA)."""
    env = os.environ.get("BRIDGELAW_DATA", "")
    hit = _ROOTS.get(env)
    if hit is None:
        hit = _ROOTS[env] = str(laws_dir())
    return hit


_ROOTS: dict[str, str] = {}


@lru_cache(maxsize=20000)
def _normalise(text: str, root: str) -> tuple[str, ...]:
    words = _words_data(root)
    out = []
    toks = [w for w in (_fold(t) for t in _FOOTNOTE.sub(" ", text).split()) if w]
    i = 0
    while i < len(toks):
        pair = f"{toks[i]} {toks[i + 1]}" if i + 1 < len(toks) else ""
        if pair in words.spelling:
            out.append(words.spelling[pair])
            i += 2
            continue
        out.append(words.spelling.get(toks[i], toks[i]))
        i += 1
    return tuple(out)


def substance(a: str, b: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The words of substance in which two texts differ: of the words that carry a rule (numbers, and the
    roles, modality, time and remedies ``laws/consistency.yaml`` lists), inflection and spelling set aside,
    those one text has more often than the other."""
    keep = _words_data(_root()).substance

    def words(text: str) -> Counter[str]:
        out: Counter[str] = Counter()
        for w in normalise(text):
            st = _stem(w)
            if st in keep or any(ch.isdigit() for ch in w):
                out[st] += 1
        return out

    ca, cb = words(_unlabelled(a)), words(_unlabelled(b))
    return tuple(sorted((ca - cb).elements())), tuple(sorted((cb - ca).elements()))


def _unlabelled(text: str) -> str:
    """A clause without its printed label ((a), _a_, I., 1st.): the label numbers the clause, it is no rule."""
    m = _LABEL.match(text)
    return text[m.end():] if m else text


def _similarity(a: str, b: str) -> float:
    wa, wb = normalise(a), normalise(b)
    if not wa or not wb:
        return 0.0
    return difflib.SequenceMatcher(None, wa, wb, autojunk=False).ratio()


# --------------------------------------------------------------------------
# Settlements (laws/consistency.yaml)


def _law_pair(a: str, b: str) -> tuple[str, str]:
    """An unordered pair of law references ("wcny-1912/88"), as a key."""
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True)
class Settlement:
    """A suspect settled by reading the law: the difference (or sameness) stands, or the data was fixed."""

    kind: str
    suspect: str
    laws: tuple[tuple[str, str], ...]  # pairs of law references, "code/number"
    verdict: str  # "stands" or "fixed"
    why: str
    ruling: str = ""
    line: int = 0

    def key(self) -> tuple[Any, ...]:
        return (self.kind, self.suspect, frozenset(_law_pair(*p) for p in self.laws))


def _settlement_source(root: str) -> Source:
    return _read_settlements(root)[0]


_SETTLEMENT_KEYS = ("kind", "suspect", "laws", "verdict", "why", "ruling")


@lru_cache(maxsize=4)
def _read_settlements(root: str) -> tuple[Source, tuple[Settlement, ...]]:
    path = Path(root) / "consistency.yaml"
    src = load_yaml(path, "laws/consistency.yaml")
    d = src.data
    if not isinstance(d, dict):
        raise src.error((), "expected a mapping with substance, revision and settled")
    unknown = set(d) - {"substance", "revision", "settled"}
    if unknown:
        k = sorted(unknown)[0]
        raise src.error((k,), f"unknown key {k!r}; keys are substance, revision, settled")
    _, kinds = load_kinds()
    ids = set(code_ids(Path(root)))
    out = []
    for i, s in enumerate(d.get("settled") or []):
        key = ("settled", i)
        if not isinstance(s, dict):
            raise src.error(key, "a settlement is a mapping: " + ", ".join(_SETTLEMENT_KEYS))
        for k in s:
            if k not in _SETTLEMENT_KEYS:
                raise src.error(key + (k,), f"unknown key {k!r}" + did_you_mean(str(k), _SETTLEMENT_KEYS))
        for k in ("kind", "suspect", "laws", "verdict", "why"):
            if k not in s:
                raise src.error(key, f"a settlement needs {k!r}")
        if s["kind"] not in kinds:
            raise src.error(key + ("kind",), f"unknown kind {s['kind']!r}" + did_you_mean(str(s["kind"]), kinds))
        if s["suspect"] not in SUSPECT_TYPES:
            raise src.error(key + ("suspect",), f"suspect is one of {', '.join(SUSPECT_TYPES)}"
                            + did_you_mean(str(s["suspect"]), SUSPECT_TYPES))
        if s["verdict"] not in ("stands", "fixed"):
            raise src.error(key + ("verdict",), "verdict is 'stands' (with why) or 'fixed' (with the ruling that "
                                                "pins the fix)")
        if s["verdict"] == "fixed" and not s.get("ruling"):
            raise src.error(key, "a fixed suspect names the casebook 'ruling' that pins the fix")
        pairs = s["laws"]
        if not isinstance(pairs, list) or not pairs:
            raise src.error(key + ("laws",), "laws is a list of pairs of law references, e.g. "
                                             "[[wcny-1912/88, wcny-1913/88]]")
        refs = []
        for j, pr in enumerate(pairs):
            if not isinstance(pr, list) or len(pr) != 2 or not all(isinstance(x, str) for x in pr):
                raise src.error(key + ("laws", j), "a pair of law references: [CODE/LAW, CODE/LAW]")
            for n, ref in enumerate(pr):
                cid, _, num = ref.partition("/")
                if cid not in ids:
                    raise src.error(key + ("laws", j, n), f"unknown code {cid!r} in {ref!r}"
                                    + did_you_mean(cid, ids))
                if load_code(cid).law(num) is None:
                    raise src.error(key + ("laws", j, n), f"{cid} has no law {num!r}")
            refs.append((pr[0], pr[1]))
        out.append(Settlement(str(s["kind"]), s["suspect"], tuple(refs), s["verdict"], str(s["why"]),
                              str(s.get("ruling", "")), src.mark(key).line))
    return src, tuple(out)


def load_settlements() -> tuple[Settlement, ...]:
    """The settled suspects of laws/consistency.yaml (the whole file checked: spelling, substance, revision too)."""
    _words_data(_root())
    return _read_settlements(_root())[1]


# --------------------------------------------------------------------------
# The audit


@dataclass(frozen=True)
class Ref:
    """A sentence of a code's account: the code whose account holds it, the law, its place, its text.
    ``index`` -1: the law has no sentence that answers the other code's (no counterpart)."""

    code: str
    law: str
    index: int
    text: str

    @property
    def law_ref(self) -> str:
        return f"{self.code}/{self.law}" if self.law else f"{self.code}/-"

    def to_dict(self) -> dict[str, Any]:
        return {"law": self.law_ref, "sentence": self.text if self.index >= 0 else None}


@dataclass(frozen=True)
class Suspect:
    kind: str
    suspect: str  # DIFFERENT or SAME
    a: str  # the two codes audited
    b: str
    pairs: tuple[tuple[Ref, Ref], ...]  # the governing sentences, each with its counterpart
    a_does: str
    b_does: str
    differs: tuple[tuple[str, ...], tuple[str, ...]]  # SAME: the words of substance only in A, only in B
    count: int
    example: Mapping[str, Any]
    settlement: Settlement | None = None

    def key(self) -> tuple[Any, ...]:
        return (self.kind, self.suspect, frozenset(_law_pair(x.law_ref, y.law_ref) for x, y in self.pairs))

    def settlement_stub(self) -> dict[str, Any]:
        """What laws/consistency.yaml would record for this suspect (verdict and why still to be written)."""
        return {"kind": self.kind, "suspect": self.suspect,
                "laws": sorted([list(_law_pair(x.law_ref, y.law_ref)) for x, y in self.pairs])}

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "kind": self.kind, "suspect": self.suspect, "count": self.count, "example": dict(self.example),
            self.a: {"does": self.a_does, "sentences": [x.to_dict() for x, _ in self.pairs]},
            self.b: {"does": self.b_does, "sentences": [y.to_dict() for _, y in self.pairs]},
            "settle": self.settlement_stub(),
        }
        if self.suspect == SAME:
            d["differs"] = {self.a: list(self.differs[0]), self.b: list(self.differs[1])}
        if self.settlement is not None:
            d["settled"] = {"verdict": self.settlement.verdict, "why": self.settlement.why,
                            "at": f"laws/consistency.yaml:{self.settlement.line}"}
        return d


@dataclass(frozen=True)
class AuditReport:
    a: str
    b: str
    incidents: int
    suspects: tuple[Suspect, ...]

    @property
    def unsettled(self) -> tuple[Suspect, ...]:
        return tuple(s for s in self.suspects if s.settlement is None)

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "incidents": self.incidents, "suspects": len(self.suspects),
                "unsettled": len(self.unsettled), "found": [s.to_dict() for s in self.suspects]}


def same_game_pairs() -> list[tuple[str, str]]:
    """Every pair of codes of one game (auction, straight bridge), in name order."""
    codes = [load_code(c) for c in code_ids()]
    return [(a.id, b.id) for a, b in itertools.combinations(codes, 2) if a.game == b.game]


def _check_pair(a_id: str, b_id: str) -> tuple[Code, Code]:
    a = load_code(a_id)
    try:
        b = load_code(b_id)
    except UnknownCodeError as e:
        raise InputError("--against", e.message) from None
    if a.id == b.id:
        raise InputError("--against", f"{a_id} against itself: name another code of the same game")
    if a.game != b.game:
        others = [c for c in code_ids() if c != a.id and load_code(c).game == a.game]
        raise InputError("--against", f"{b_id} is {b.game}, {a_id} is {a.game}: the audit compares codes of one "
                                      f"game; {a_id} can be audited against {', '.join(others)}")
    return a, b


class _Side:
    """One code's rulings of the fact space's incidents, each interned as (signature, what it does, the
    sentences that govern it)."""

    def __init__(self, code: Code) -> None:
        self.code = code
        self.account: Account = load_account(code.id)
        self.by_provision: dict[str, list[Ref]] = {}
        for la in self.account.laws:
            for i, s in enumerate(la.sentences):
                for pid in s.provisions:
                    self.by_provision.setdefault(pid, []).append(Ref(la.code, la.number, i, s.text))
        self.results: list[tuple[Any, ...] | None] = []  # the distinct rulings, by id
        self._ids: dict[Any, int] = {}

    def intern(self, r: Ruling | None) -> int:
        out = None if r is None else (_signature(r), _does(r), self._governing(r))
        rid = self._ids.get(out)
        if rid is None:
            rid = self._ids[out] = len(self.results)
            self.results.append(out)
        return rid

    def _governing(self, r: Ruling) -> tuple[Ref, ...]:
        """The sentences of the provisions that applied, and of those that wait on a question."""
        found: dict[Ref, None] = {}
        ids = [t.provision for t in r.trace if t.applied] + [p for q in r.questions for p in q.provisions]
        for full_id in ids:
            for ref in self.by_provision.get(full_id.rsplit("/", 1)[1], ()):
                found[ref] = None
        return tuple(found)


def _plain(e: Any) -> str:
    """An effect without its words: a procedure's text, a right's or a discretion's wording is ours, not the
    law's, and two codes saying one thing in other words rule alike."""
    return repr(sorted((k, v) for k, v in e.to_dict().items() if k not in _WORDS))


_WORDS = frozenset(name for fields in EFFECT_FIELDS.values() for name, (t, _) in fields.items() if t == "literal")


def _signature(r: Ruling) -> tuple[Any, ...]:
    effects = tuple(sorted(_plain(e) for e in r.effects))
    options = tuple(sorted(repr((o.chooser, [_plain(e) for e in o.effects])) for o in r.options))
    return effects, options, tuple(sorted(q.fact for q in r.questions))


def _does(r: Ruling) -> str:
    """What a ruling does, in a few words (effect kinds, who chooses, what is asked)."""
    def one(e: Any) -> str:
        d = e.to_dict()
        if d["kind"] == "score":
            return f"score {d['points']} to {d.get('side') or d.get('player')}"
        if d["kind"] == "transfer_tricks":
            return f"{d['count']} tricks {d['from']}->{d['to']}"
        return str(d["kind"])

    parts = [one(e) for e in r.effects]
    parts += [f"option for {o.chooser}: " + "+".join(one(e) for e in o.effects) for o in r.options]
    if r.questions:
        parts.append("asks " + ", ".join(q.fact for q in r.questions))
    return "; ".join(parts) or "nothing"


class _Counterparts:
    """Each governing sentence of one code, paired with the most similar sentence of the aligned law."""

    def __init__(self, x: _Side, y: _Side, law_map: Mapping[str, tuple[str, ...]]) -> None:
        self.x, self.y = x, y
        self.law_map = law_map
        self._memo: dict[Ref, Ref] = {}
        self._near: dict[tuple[Ref, tuple[Ref, ...]], Ref] = {}

    def of(self, ref: Ref, governing: tuple[Ref, ...] = ()) -> Ref:
        """The counterpart of a sentence: the most like it among the other code's sentences that govern the
        same incident, else among the sentences of the aligned law."""
        if governing:
            key = (ref, governing)
            hit = self._near.get(key)
            if hit is None:
                nearest = max(governing, key=lambda g: _similar(ref.text, g.text))
                hit = nearest if _similar(ref.text, nearest.text) >= 0.3 else self.of(ref)
                self._near[key] = hit
            return hit
        hit = self._memo.get(ref)
        if hit is not None:
            return hit
        aligned = [la for la in (self.y.account.law(n) for n in self.law_map.get(ref.law, ())) if la is not None]
        la = aligned[0] if aligned else None
        best: tuple[float, Ref] | None = None
        for lx in aligned:
            for j, s in enumerate(lx.sentences):
                sim = _similar(ref.text, s.text)
                if best is None or sim > best[0]:
                    best = (sim, Ref(lx.code, lx.number, j, s.text))
        if best is None or best[0] < 0.5:  # else the most like it among the laws that share a topic
            law = self.x.code.law(ref.law)
            topics = set(law.topics) if law is not None else set()
            for lb in self.y.account.laws:
                other_law = self.y.code.law(lb.number)
                if other_law is None or not topics & set(other_law.topics):
                    continue
                for j, s in enumerate(lb.sentences):
                    sim = _similar(ref.text, s.text)
                    if sim >= 0.5 and (best is None or sim > best[0]):
                        best = (sim, Ref(lb.code, lb.number, j, s.text))
        if best is not None and best[0] >= 0.5:
            out = best[1]
        elif la is not None:
            out = Ref(la.code, la.number, -1, "")
        else:
            out = Ref(self.y.code.id, "", -1, "")
        self._memo[ref] = out
        return out


@lru_cache(maxsize=None)
def _similar(a: str, b: str) -> float:
    return _similarity(a, b)


def _revision(x: Code, a: Ref, y: Code, b: Ref) -> bool:
    """Is one law a revision of the other (their whole texts alike beyond ``revision`` in laws/consistency.yaml)?"""
    if not a.law or not b.law:
        return False
    la, lb = load_code(a.code).law(a.law), load_code(b.code).law(b.law)
    if la is None or lb is None or not la.text or not lb.text:
        return False
    return _similar(la.text, lb.text) >= _words_data(_root()).revision


@lru_cache(maxsize=None)
def _reads_same(a: str, b: str) -> bool:
    return normalise(a) == normalise(b)


@lru_cache(maxsize=None)
def _substance(a: str, b: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return substance(a, b)


def _audit(x: _Side, y: _Side, cases: list[Case], ids_x: list[int], ids_y: list[int]) -> tuple[int, list[Suspect]]:
    groups_ = align(x.code, y.code)
    forward = {law.number: g.numbers_b for g in groups_ for law in g.a}
    back = {law.number: g.numbers_a for g in groups_ for law in g.b}
    xy, yx = _Counterparts(x, y, forward), _Counterparts(y, x, back)
    combos: dict[tuple[int, int], list[tuple[str, tuple[tuple[Ref, Ref], ...], Any]]] = {}
    groups: dict[tuple[Any, ...], dict[str, Any]] = {}
    tried = 0
    for case, ix, iy in zip(cases, ids_x, ids_y):
        rx, ry = x.results[ix], y.results[iy]
        if rx is None or ry is None:
            continue
        tried += case.weight
        found = combos.get((ix, iy))
        if found is None:
            found = combos[(ix, iy)] = _suspects_of(x, y, xy, yx, rx, ry)
        if not found:
            continue
        weight = sum(1 for _, v in case.decided_by if v not in (False, None))
        for typ, prs, differs in found:
            key = (case.kind, typ, frozenset(_law_pair(p.law_ref, q.law_ref) for p, q in prs))
            g = groups.get(key)
            if g is None:
                groups[key] = {"count": case.weight, "weight": weight, "inc": case.incident, "typ": typ,
                               "kind": case.kind, "pairs": dict.fromkeys(prs), "does": (rx[1], ry[1]),
                               "differs": differs}
                continue
            g["count"] += case.weight
            g["pairs"].update(dict.fromkeys(prs))
            if typ == SAME:
                g["differs"] = (tuple(dict.fromkeys(g["differs"][0] + differs[0])),
                                tuple(dict.fromkeys(g["differs"][1] + differs[1])))
            if weight < g["weight"]:
                g.update(weight=weight, inc=case.incident, does=(rx[1], ry[1]))
    out = [Suspect(g["kind"], g["typ"], x.code.id, y.code.id, tuple(g["pairs"]), g["does"][0], g["does"][1],
                   g["differs"], g["count"], g["inc"]) for g in groups.values()]
    out.sort(key=lambda s: (s.kind, s.suspect, sorted(_law_pair(p.law_ref, q.law_ref) for p, q in s.pairs)))
    return tried, out


def _suspects_of(x: _Side, y: _Side, xy: _Counterparts, yx: _Counterparts, rx: tuple[Any, ...],
                 ry: tuple[Any, ...]) -> list[tuple[str, tuple[tuple[Ref, Ref], ...], Any]]:
    """What one pair of rulings makes suspect: the governing sentences paired, then compared."""
    sig_x, _, gov_x = rx
    sig_y, _, gov_y = ry
    if not gov_x and not gov_y:
        return []  # both silent: nothing governs
    pairs = tuple(dict.fromkeys([(s, xy.of(s, gov_y)) for s in gov_x] + [(yx.of(s, gov_x), s) for s in gov_y]))
    found: list[tuple[str, tuple[tuple[Ref, Ref], ...], Any]] = []
    if sig_x != sig_y:
        if all(a.index >= 0 and b.index >= 0 and _reads_same(a.text, b.text) for a, b in pairs):
            found.append((DIFFERENT, pairs, ((), ())))
        return found
    for a, b in pairs:
        if not _revision(x.code, a, y.code, b):
            continue  # two texts drafted apart: a different wording is expected, not suspect
        if a.index < 0 or b.index < 0:
            found.append((SAME, ((a, b),), (("(no counterpart)",) if b.index < 0 else (),
                                            ("(no counterpart)",) if a.index < 0 else ())))
            continue
        da, db = _substance(a.text, b.text)
        if da or db:
            found.append((SAME, ((a, b),), (da, db)))
    return found


def _settle(suspects: list[Suspect]) -> tuple[Suspect, ...]:
    settled = {s.key(): s for s in load_settlements() if s.verdict == "stands"}
    return tuple(Suspect(s.kind, s.suspect, s.a, s.b, s.pairs, s.a_does, s.b_does, s.differs, s.count, s.example,
                         settled.get(s.key())) for s in suspects)


def _cases(codes: list[Code], kinds: Iterable[str]) -> list[Case]:
    """One incident for each class of the codes' fact space (``factspace.classes``), ruled under each code."""
    return [case for kind in kinds for case in classes(codes, kind)]


def _kinds(codes: list[Code], kinds: Iterable[str] | None) -> list[str]:
    _, all_kinds = load_kinds()
    if kinds:
        for k in kinds:
            if k not in all_kinds:
                raise InputError("--kind", f"unknown kind {k!r}{did_you_mean(k, all_kinds)}")
        return list(kinds)
    return sorted(set().union(*(set(c.by_kind) for c in codes)))


def audit_against(a_id: str, b_id: str, kinds: Iterable[str] | None = None) -> AuditReport:
    """Audit one code against another of the same game: every suspect, settled or not."""
    a, b = _check_pair(a_id, b_id)
    cases = _cases([a, b], _kinds([a, b], kinds))
    x, y = _Side(a), _Side(b)
    tried, suspects = _audit(x, y, cases, [x.intern(c.rulings[0]) for c in cases],
                             [y.intern(c.rulings[1]) for c in cases])
    return AuditReport(a.id, b.id, tried, _settle(suspects))


def audit_game(game: str | None = None) -> list[AuditReport]:
    """Every same-game pair at once: each code rules each incident of the game's fact space once."""
    codes = [load_code(c) for c in code_ids()]
    games = sorted({c.game for c in codes}) if game is None else [game]
    reports = []
    for g in games:
        members = [c for c in codes if c.game == g]
        sides = {c.id: _Side(c) for c in members}
        cases = _cases(members, _kinds(members, None))
        ids = {c.id: [sides[c.id].intern(case.rulings[k]) for case in cases] for k, c in enumerate(members)}
        for x, y in itertools.combinations(members, 2):
            tried, suspects = _audit(sides[x.id], sides[y.id], cases, ids[x.id], ids[y.id])
            reports.append(AuditReport(x.id, y.id, tried, _settle(suspects)))
    return reports


def stale_settlements(reports: Iterable[AuditReport]) -> list[Settlement]:
    """Settlements marked 'stands' that no suspect of these reports matches any more."""
    keys = {s.key() for r in reports for s in r.suspects}
    return [s for s in load_settlements() if s.verdict == "stands" and s.key() not in keys]


def clear_cache() -> None:
    _ROOTS.clear()
    _similar.cache_clear()
    _words_data.cache_clear()
    _normalise.cache_clear()
    _read_settlements.cache_clear()
    _reads_same.cache_clear()
    _substance.cache_clear()
