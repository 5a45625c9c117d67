"""Compare law editions: text, numbers, provisions, the rulings they produce; a topic's history; an audit.

The work is done in small modules, gathered here:

- :func:`align` (:mod:`bridgelaw.alignment`) pairs the laws of two codes, one to one or n to m;
- :func:`diff_codes` (:mod:`bridgelaw.editions`) diffs them word by word, verbatim by construction
  (:mod:`bridgelaw.textdiff`), with the numbers and provisions that changed and a summary first;
- :func:`ruling_diff` (:mod:`bridgelaw.rulingdiff`) rules the incidents of every kind under both codes
  (:mod:`bridgelaw.factspace`: by equivalence classes) and groups what changes for the players;
- :func:`history` (:mod:`bridgelaw.history`) reads one topic through every code, its numbers first;
- :func:`audit` finds where a code is silent — only on kinds of its own game, saying where a silence
  falls in text missing from every source — and where two provisions apply with clashing effects and no
  precedence between them;
- :func:`render` (:mod:`bridgelaw.report`) writes any of them as text, Markdown, HTML or JSON.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from .alignment import LawGroup, align
from .editions import CodeDiff, diff_codes
from .factspace import classes
from .history import History, history
from .loader import Code, code_ids, load_code, load_kinds
from .report import render
from .rulingdiff import RulingDiff, ruling_diff
from .textdiff import similarity, word_diff

__all__ = ["LawGroup", "CodeDiff", "RulingDiff", "History", "Audit", "align", "diff_codes", "ruling_diff",
           "history", "audit", "render", "similarity", "word_diff"]

LawPair = LawGroup  # the name of earlier releases


# --------------------------------------------------------------------------
# Audit


from .vocabulary import vocabulary as _vocabulary  # noqa: E402  (the clashes: schema/effects.yaml)

_CONFLICTS = _vocabulary().clash_pairs()




@dataclass
class Silence:
    kind: str
    summary: str
    example: dict[str, Any]
    facts: tuple[tuple[str, Any], ...]
    note: str = ""
    missing_text: str = ""  # where the silence falls in text missing from every source

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "summary": self.summary, "example": self.example,
                "decided_by": [list(x) for x in self.facts], "note": self.note or None,
                "in_missing_text": self.missing_text or None}


@dataclass
class Conflict:
    kind: str
    provisions: list[str]
    effects: list[str]
    example: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "provisions": self.provisions, "effects": self.effects, "example": self.example}


@dataclass
class Audit:
    code: str
    title: str
    game: str
    incidents: int
    kinds: int
    other_games: list[str]  # kinds only codes of another game answer: not this code's business
    silent: list[Silence] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # laws printed in the code but in no source

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "title": self.title, "game": self.game, "incidents": self.incidents,
                "kinds": self.kinds, "kinds_of_other_games": self.other_games, "missing_laws": self.missing,
                "silent": [s.to_dict() for s in self.silent], "conflicts": [c.to_dict() for c in self.conflicts]}


def _game_kinds(code: Code) -> tuple[set[str], set[str]]:
    """The kinds some code of this code's game (and number of players) answers; and those only codes of
    other games answer."""
    mine: set[str] = set()
    others: set[str] = set()
    for cid in code_ids():
        c = load_code(cid)
        (mine if (c.game, c.players) == (code.game, code.players) else others).update(c.by_kind)
    return mine, others - mine


def _in_missing_text(code: Code, kind: str, aligned: dict[str, list[LawGroup]] | None = None) -> str:
    """Where the laws that answer ``kind`` in the other codes of this game would fall in this code: in the
    laws missing from every source, when they follow the last law this code still has."""
    missing = [law for law in code.laws if law.missing]
    if not missing:
        return ""
    present = [law for law in code.laws if law.text]
    for cid in sorted(code_ids(), key=lambda c: abs(load_code(c).year - code.year)):
        other = load_code(cid)
        if cid == code.id or other.game != code.game or other.players != code.players or kind not in other.by_kind:
            continue
        groups = aligned.get(cid) if aligned is not None else None
        if groups is None:
            groups = align(other, code)
            if aligned is not None:
                aligned[cid] = groups
        to_mine = {law.number: g.numbers_b for g in groups for law in g.a}
        order = [law.number for law in other.laws]
        for p in other.by_kind[kind]:
            if to_mine.get(p.law):
                continue  # the law has its counterpart here: a silence of the text, not of the sources
            i = order.index(p.law)
            before = next((to_mine[n] for n in reversed(order[:i]) if to_mine.get(n)), ())
            last = present[-1].number if present else ""
            if last and last in before:
                head = other.law(p.law)
                where = f" ({head.heading})" if head is not None and head.heading else ""
                return (f"laws {missing[0].number} onward are in no source; in {cid} this is law {p.law}{where}, "
                        f"which follows the law that is {last} here")
    return ""


def audit(code_id: str) -> Audit:
    """Kinds (of this code's game) and fact combinations where the code is silent, and unresolved conflicts
    between provisions."""
    code = load_code(code_id)
    _, kinds = load_kinds()
    mine, others = _game_kinds(code)
    res = Audit(code_id, code.title, code.game, 0, 0, sorted(others),
                missing=[law.number for law in code.laws if law.missing])
    aligned: dict[str, list[LawGroup]] = {}
    for kind in sorted(kinds):
        if kind not in mine:
            continue
        res.kinds += 1
        summary = kinds[kind].summary
        if kind not in code.by_kind:
            res.silent.append(Silence(kind, summary, {"irregularity": kind}, (),
                                      "no provision of the code answers this kind",
                                      _in_missing_text(code, kind, aligned)))
            continue
        seen_silent = False
        seen: set[tuple[str, str]] = set()
        provs = {p.full_id: p for p in code.by_kind[kind]}
        for case in classes([code], kind):
            r = case.rulings[0]
            if r is None:
                continue
            res.incidents += 1
            if not seen_silent and any(e.kind.value == "no_provision" for e in r.effects):
                res.silent.append(Silence(kind, summary, dict(case.incident), case.decided_by,
                                          missing_text=_in_missing_text(code, kind, aligned)))
                seen_silent = True
            applied = [t for t in r.trace if t.applied]
            for x, y in itertools.combinations(applied, 2):
                px, py = provs[x.provision], provs[y.provision]
                if py.id in px.overrides or px.id in py.overrides:
                    continue
                kx = {e.kind.value for e in px.effects} | {e.kind.value for o in px.options for e in o.effects}
                ky = {e.kind.value for e in py.effects} | {e.kind.value for o in py.options for e in o.effects}
                clash = [c for c in _CONFLICTS if (c[0] in kx and c[1] in ky) or (c[1] in kx and c[0] in ky)]
                if clash and (px.id, py.id) not in seen:
                    seen.add((px.id, py.id))
                    res.conflicts.append(Conflict(kind, [px.full_id, py.full_id], ["/".join(c) for c in clash],
                                                  dict(case.incident)))
    return res
