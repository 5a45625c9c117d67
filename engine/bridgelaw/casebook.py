"""The casebook: worked rulings, each a story, an incident and the expected ruling.

A casebook file (``rulings/<code>/<a-sentence-name>.yaml``)::

    name: An adversary's first established revoke gives the declarer a choice
    story: >
      ... what happened at the table ...
    cites: commentary, Foster, seeds/002 ...      # optional: where the example comes from
    incident: {code: wcny-1913, irregularity: revoke, ...}
    expect:
      laws: ["84"]                 # the law numbers the ruling cites, in order
      effects: [...]               # exactly the automatic effects
      options: [...]               # exactly the options: id, chooser, law, effects
      questions: []                # the facts still asked for
      applied: [adversary-revokes] # optional: the provision ids that applied

Tests compare the ruling with ``expect`` field by field.

A scoring case has ``result`` (a deal or a rubber, ``schema/score.schema.json``)
instead of ``incident``, and ``expect`` holds ``entries`` (exactly, in order),
``totals`` and, for a rubber, ``rubber``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from .errors import LawFileError
from .yamlsrc import Source, load_yaml

__all__ = ["Case", "load_cases", "compare"]

_KEYS = ("name", "story", "cites", "incident", "result", "expect")
_EXPECT = ("laws", "effects", "options", "questions", "applied", "notes_include", "entries", "totals", "rubber")


@dataclass(frozen=True)
class Case:
    path: str
    name: str
    story: str
    incident: Mapping[str, Any]
    expect: Mapping[str, Any]
    source: Source
    kind: str = "ruling"  # or "score"


def load_cases(root: Path, scores: bool = False) -> list[Case]:
    """The rulings (``rulings/<code>/*.yaml``), or with ``scores`` the scoring cases (``rulings/<code>/scores/``)."""
    cases = []
    for path in sorted(root.glob("*/scores/*.yaml" if scores else "*/*.yaml")):
        rel = str(path.relative_to(root.parent))
        src = load_yaml(path, rel)
        d = src.data
        if not isinstance(d, dict):
            raise LawFileError("expected a mapping with name, story, incident, expect", rel, 1, 1)
        for k in d:
            if k not in _KEYS:
                raise src.error((k,), f"unknown key {k!r}; allowed keys: {', '.join(_KEYS)}")
        for k in ("name", "story", "expect"):
            if k not in d:
                raise src.error((), f"casebook entry needs {k!r}")
        if ("incident" in d) == ("result" in d):
            raise src.error((), "a casebook entry has either 'incident' (a ruling) or 'result' (a score)")
        kind = "ruling" if "incident" in d else "score"
        body = d["incident"] if kind == "ruling" else d["result"]
        if not isinstance(d["expect"], dict):
            raise src.error(("expect",), "expected a mapping")
        for k in d["expect"]:
            if k not in _EXPECT:
                raise src.error(("expect", k), f"unknown key {k!r}; allowed keys: {', '.join(_EXPECT)}")
        if (kind == "score") != scores:
            raise src.error((), "scoring cases ('result') live in rulings/<code>/scores/, rulings ('incident') "
                                "in rulings/<code>/")
        folder = path.parent.parent.name if scores else path.parent.name
        if not isinstance(body, dict) or folder != body.get("code"):
            raise src.error((kind if kind == "incident" else "result",),
                            f"a case in rulings/{folder}/ must be under that code")
        cases.append(Case(rel, str(d["name"]), str(d["story"]), body, d["expect"], src, kind))
    return cases


def compare_score(score: Any, expect: Mapping[str, Any]) -> list[str]:
    """The differences between a score and what the casebook expects."""
    got = score.to_dict()
    diffs = []
    if "entries" in expect:
        want = [dict(e, law=str(e["law"])) for e in expect["entries"]]
        if got["entries"] != want:
            diffs.append(f"entries: expected {want}, got {got['entries']}")
    if "totals" in expect:
        for side, cols in expect["totals"].items():
            for col, v in cols.items():
                if got["totals"][side][col] != v:
                    diffs.append(f"totals.{side}.{col}: expected {v}, got {got['totals'][side][col]}")
    for n in expect.get("notes_include", []):
        if not any(n in note for note in got.get("notes", [])):
            diffs.append(f"notes: expected a note containing {n!r}, got {got.get('notes', [])}")
    if "rubber" in expect:
        for k, v in expect["rubber"].items():
            if (got.get("rubber") or {}).get(k) != v:
                diffs.append(f"rubber.{k}: expected {v!r}, got {(got.get('rubber') or {}).get(k)!r}")
    return diffs


def compare(ruling: Any, expect: Mapping[str, Any]) -> list[str]:
    """The differences between a ruling and what the casebook expects (empty: it matches)."""
    got = ruling.to_dict()
    diffs = []
    if "laws" in expect:
        laws = [c["number"] for c in got["laws"]]
        if laws != [str(x) for x in expect["laws"]]:
            diffs.append(f"laws: expected {expect['laws']}, got {laws}")
    if "effects" in expect:
        if got["effects"] != list(expect["effects"]):
            diffs.append(f"effects: expected {expect['effects']}, got {got['effects']}")
    if "options" in expect:
        opts = [{"id": o["id"], "chooser": o["chooser"], "law": o["law"], "effects": o["effects"],
                 **({"awaits": o["awaits"]} if o.get("awaits") else {})} for o in got["options"]]
        want = [{"id": o["id"], "chooser": o["chooser"], "law": str(o["law"]), "effects": o["effects"],
                 **({"awaits": list(o["awaits"])} if o.get("awaits") else {})} for o in expect["options"]]
        if opts != want:
            diffs.append(f"options: expected {want}, got {opts}")
    if "questions" in expect:
        qs = [q["fact"] for q in got["questions"]]
        if sorted(qs) != sorted(expect["questions"]):
            diffs.append(f"questions: expected {expect['questions']}, got {qs}")
    if "applied" in expect:
        applied = [t["provision"].rsplit("/", 1)[1] for t in got["trace"] if t["applied"]]
        if sorted(applied) != sorted(expect["applied"]):
            diffs.append(f"applied: expected {expect['applied']}, got {applied}")
    for n in expect.get("notes_include", []):
        if not any(n in note for note in got["notes"]):
            diffs.append(f"notes: expected a note containing {n!r}, got {got['notes']}")
    return diffs
