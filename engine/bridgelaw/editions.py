"""Two editions compared: their laws aligned and diffed word by word, their numbers, their provisions,
and a summary that leads with what changed.

:func:`diff_codes` gives a :class:`CodeDiff`; :mod:`bridgelaw.report` writes it as text, Markdown,
HTML or JSON.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from .alignment import LawGroup, align
from .errors import InputError, did_you_mean
from .loader import Code, Law, load_code
from .textdiff import Spelling, TextDiff, diff_texts, spelling

__all__ = ["CodeDiff", "LawRow", "ParamChange", "ProvisionChange", "Summary", "diff_codes", "parameter_laws",
           "IGNORABLE", "check_topic", "gist"]

IGNORABLE = ("spelling",)  # what --ignore may set aside


@dataclass(frozen=True)
class LawRow:
    """One row of the side-by-side: the corresponding laws and their marked texts."""

    group: LawGroup
    diff: TextDiff

    @property
    def status(self) -> str:
        """added, removed, substance, spelling or same."""
        if not self.group.a:
            return "added"
        if not self.group.b:
            return "removed"
        if self.diff.substantive:
            return "substance"
        return "spelling" if self.diff.changed else "same"

    @property
    def anchor(self) -> str:
        a = "+".join(self.group.numbers_a) or "none"
        b = "+".join(self.group.numbers_b) or "none"
        return f"law-{a}-{b}"

    def to_dict(self) -> dict[str, Any]:
        g = self.group
        legacy = []
        if g.a and g.b and self.diff.changed:
            from .textdiff import word_diff

            legacy = [list(x) for x in word_diff("\n\n".join(law.text or "" for law in g.a),
                                                 "\n\n".join(law.text or "" for law in g.b))]
        return {
            "a": g.a[0].number if g.a else None, "b": g.b[0].number if g.b else None,
            "laws_a": list(g.numbers_a), "laws_b": list(g.numbers_b), "how": g.how, "status": self.status,
            "similarity": round(g.similarity, 3), "same_text": not self.diff.changed, "topics": list(g.topics),
            "spellings": list(self.diff.spellings),
            "text_a": [{"law": m.number, "segments": [[s.op, s.text] for s in m.segments]} for m in self.diff.a],
            "text_b": [{"law": m.number, "segments": [[s.op, s.text] for s in m.segments]} for m in self.diff.b],
            "diff": legacy,
        }


@dataclass(frozen=True)
class ParamChange:
    name: str
    a: Any
    b: Any
    law_a: str | None
    law_b: str | None
    none_a: str | None = None  # why the code states none, where it says
    none_b: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "a": self.a, "b": self.b, "law_a": self.law_a, "law_b": self.law_b,
                "none_a": self.none_a, "none_b": self.none_b}


@dataclass(frozen=True)
class ProvisionChange:
    change: str  # added, removed, changed
    id: str
    law_a: str
    law_b: str

    def to_dict(self) -> dict[str, Any]:
        return {"change": self.change, "id": self.id, "law_a": self.law_a, "law_b": self.law_b}


@dataclass(frozen=True)
class Summary:
    """What changed, first: counted and listed."""

    added: tuple[LawRow, ...]
    removed: tuple[LawRow, ...]
    renumbered: tuple[LawRow, ...]  # one to one, the number changed
    regrouped: tuple[LawRow, ...]  # merged, split or regrouped
    substance: tuple[LawRow, ...]  # changed in substance (aligned on both sides)
    spelling: tuple[LawRow, ...]  # changed only in spelling, case or punctuation
    same: int
    missing_a: tuple[str, ...]  # laws printed in the code but missing from every source
    missing_b: tuple[str, ...]
    spellings: tuple[tuple[str, int], ...]  # spelling group, laws it was found in

    def to_dict(self) -> dict[str, Any]:
        def nums(rows: tuple[LawRow, ...]) -> list[dict[str, Any]]:
            return [{"a": list(r.group.numbers_a), "b": list(r.group.numbers_b), "how": r.group.how} for r in rows]

        return {"added": nums(self.added), "removed": nums(self.removed), "renumbered": nums(self.renumbered),
                "merged_or_split": nums(self.regrouped), "changed_in_substance": nums(self.substance),
                "changed_in_spelling_only": nums(self.spelling), "unchanged": self.same,
                "missing_a": list(self.missing_a), "missing_b": list(self.missing_b),
                "spellings": [{"spelling": s, "laws": n} for s, n in self.spellings]}


@dataclass(frozen=True)
class CodeDiff:
    a: str
    b: str
    title_a: str
    title_b: str
    year_a: int
    year_b: int
    topic: str | None
    ignore: tuple[str, ...]
    rows: tuple[LawRow, ...]
    params: tuple[ParamChange, ...]
    provisions: tuple[ProvisionChange, ...]
    summary: Summary
    spelling_source: str

    @property
    def pairs(self) -> tuple[LawGroup, ...]:
        return tuple(r.group for r in self.rows)

    def shown(self) -> tuple[LawRow, ...]:
        """The rows the side-by-side shows: every change, spelling only when it is not set aside."""
        skip = {"same"} | ({"spelling"} if "spelling" in self.ignore else set())
        return tuple(r for r in self.rows if r.status not in skip)

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a, "b": self.b, "title_a": self.title_a, "title_b": self.title_b, "year_a": self.year_a,
            "year_b": self.year_b, "topic": self.topic, "ignore": list(self.ignore),
            "set_aside": _set_aside(self) if self.ignore else None,
            "summary": self.summary.to_dict(),
            "laws": [r.to_dict() for r in self.rows],
            "parameters": [p.to_dict() for p in self.params],
            "provisions": [p.to_dict() for p in self.provisions],
        }


def _set_aside(d: CodeDiff) -> str:
    return ("case, hyphens, quotation marks, punctuation and footnote marks, and the spellings of "
            f"{d.spelling_source} (" + ", ".join(s for s, _ in d.summary.spellings) + ")")


def check_topic(topic: str | None, field: str = "topic") -> None:
    """A topic checked against the taxonomy (an :class:`InputError` naming ``field``, with "did you mean")."""
    if topic is None:
        return
    from .loader import load_topics
    from .resources import laws_dir

    topics = load_topics(str(laws_dir()))
    if topic not in topics:
        raise InputError(field, f"unknown topic {topic!r}{did_you_mean(topic, topics)}; `bridgelaw topics` lists them")


def check_ignore(ignore: tuple[str, ...]) -> None:
    for x in ignore:
        if x not in IGNORABLE:
            raise InputError("--ignore", f"cannot set {x!r} aside{did_you_mean(x, IGNORABLE)}; "
                                         f"choose from {', '.join(IGNORABLE)}")


def diff_codes(a_id: str, b_id: str, topic: str | None = None, ignore: tuple[str, ...] = ()) -> CodeDiff:
    """The two codes compared. ``ignore=("spelling",)`` sets spelling, case and punctuation aside."""
    check_topic(topic)
    check_ignore(tuple(ignore))
    a, b = load_code(a_id), load_code(b_id)
    sp: Spelling = spelling()
    groups = align(a, b)
    rows = tuple(LawRow(g, diff_texts([(law.number, law.text) for law in g.a], [(law.number, law.text) for law in g.b],
                                      sp if "spelling" in ignore else None)) for g in groups)
    provs = _diff_provisions(a, b, groups)
    params = _diff_params(a, b)
    if topic:
        rows = tuple(r for r in rows if topic in r.group.topics)
        keep = {law.number for r in rows for law in r.group.a + r.group.b}
        provs = [p for p in provs if p.law_a in keep or p.law_b in keep]
        params = [p for p in params if p.law_a in keep or p.law_b in keep]
    summary = _summary(a, b, rows, topic)
    return CodeDiff(a_id, b_id, a.title, b.title, a.year, b.year, topic, tuple(ignore), rows, tuple(params),
                    tuple(provs), summary, sp.source)


def _summary(a: Code, b: Code, rows: tuple[LawRow, ...], topic: str | None) -> Summary:
    def missing(code: Code) -> tuple[str, ...]:
        return tuple(law.number for law in code.laws if law.missing and (not topic or topic in law.topics))

    counts: dict[str, int] = {}
    for r in rows:
        for s in r.diff.spellings:
            counts[s] = counts.get(s, 0) + 1
    return Summary(
        added=tuple(r for r in rows if r.status == "added"),
        removed=tuple(r for r in rows if r.status == "removed"),
        renumbered=tuple(r for r in rows if r.group.how == "renumbered"),
        regrouped=tuple(r for r in rows if r.group.how in ("merged", "split", "regrouped")),
        substance=tuple(r for r in rows if r.status == "substance"),
        spelling=tuple(r for r in rows if r.status == "spelling"),
        same=sum(1 for r in rows if r.status == "same"),
        missing_a=missing(a), missing_b=missing(b),
        spellings=tuple(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))),
    )


def gist(law: Law, words: int = 12) -> str:
    """The law's first words, verbatim, cut at a word (with … when cut), footnote marks left out."""
    text = re.sub(r"\[\^\w+\]", "", law.text or "")
    ws = text.split()
    return " ".join(ws[:words]) + ("…" if len(ws) > words else "")


# --------------------------------------------------------------------------
# Parameters


def _flatten(d: Any, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    if isinstance(d, Mapping):
        for k, v in d.items():
            out.update(_flatten(v, f"{prefix}{k}."))
    else:
        out[prefix[:-1]] = d
    return out


def parameter_laws(code: Code) -> dict[str, str]:
    """Each stated parameter (dotted name) with the law that states it (``parameters.yaml``)."""
    cited = getattr(code.params, "cited", {})
    return {path: c.law for path, c in cited.items() if c.stated}


def parameter_none(code: Code, path: str) -> str | None:
    """Why the code states no such number (its note), or None when it says nothing of it."""
    none = getattr(code.params, "none", None)
    if none is None:
        return None
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        c = none(".".join(parts[:i]))
        if c is not None:
            return c.note or "the code states none"
    return None


def _diff_params(a: Code, b: Code) -> list[ParamChange]:
    fa, fb = _flatten(dict(a.params)), _flatten(dict(b.params))
    la, lb = parameter_laws(a), parameter_laws(b)
    return [ParamChange(k, fa.get(k), fb.get(k), la.get(k) if k in fa else None, lb.get(k) if k in fb else None,
                        None if k in fa else parameter_none(a, k), None if k in fb else parameter_none(b, k))
            for k in sorted(set(fa) | set(fb)) if fa.get(k) != fb.get(k)]


# --------------------------------------------------------------------------
# Provisions


def _diff_provisions(a: Code, b: Code, groups: list[LawGroup]) -> list[ProvisionChange]:
    """Pair provisions by id, else by kind within aligned laws; report added, removed and changed."""
    law_map: dict[str, set[str]] = {}
    for g in groups:
        for law in g.a:
            law_map.setdefault(law.number, set()).update(g.numbers_b)
    pb_by_id = {p.id: p for p in b.provisions}
    unmatched_b = dict(pb_by_id)
    out: list[ProvisionChange] = []
    for x in a.provisions:
        y = pb_by_id.get(x.id) if x.id in unmatched_b else None
        if y is None:
            targets = law_map.get(x.law, set())
            y = next((q for q in unmatched_b.values() if q.law in targets and set(q.kinds) & set(x.kinds)
                      and _effects_sig(q) == _effects_sig(x)), None) or \
                next((q for q in unmatched_b.values() if q.law in targets and set(q.kinds) & set(x.kinds)), None)
        if y is None:
            out.append(ProvisionChange("removed", x.id, x.law, ""))
            continue
        unmatched_b.pop(y.id, None)
        if x.when_text != y.when_text or _effects_sig(x) != _effects_sig(y) or x.kinds != y.kinds:
            out.append(ProvisionChange("changed", x.id if x.id == y.id else f"{x.id} → {y.id}", x.law, y.law))
    for y in unmatched_b.values():
        out.append(ProvisionChange("added", y.id, "", y.law))
    return out


def _effects_sig(p: Any) -> Any:
    return (tuple((e.kind, tuple((n, str(v)) for n, v, _ in e.fields)) for e in p.effects),
            tuple((o.id, tuple((e.kind, tuple((n, str(v)) for n, v, _ in e.fields)) for e in o.effects))
                  for o in p.options), p.chooser_text)
