"""One topic through every code, in date order: first a table of the numbers the topic's laws state —
code, year, law, and each number — then the texts.

A number belongs to the topic when the law it is stated in (its ``parameters.yaml`` citation) carries the
topic; each cell cites its law.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .editions import _flatten, check_topic, parameter_laws
from .loader import code_ids, load_code

__all__ = ["History", "HistoryRow", "history"]


@dataclass(frozen=True)
class HistoryLaw:
    number: str
    heading: str | None
    text: str | None
    missing: bool
    note: str
    footnotes: tuple[tuple[str, str], ...]

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "heading": self.heading, "text": self.text, "missing": self.missing,
                "note": self.note or None, "footnotes": [{"number": n, "text": t} for n, t in self.footnotes]}


@dataclass(frozen=True)
class HistoryRow:
    code: str
    year: int
    title: str
    game: str
    laws: tuple[HistoryLaw, ...]
    numbers: tuple[tuple[str, Any, str], ...]  # (parameter, value, law)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "year": self.year, "title": self.title, "game": self.game,
                "laws": [law.to_dict() for law in self.laws],
                "numbers": [{"name": n, "value": v, "law": law} for n, v, law in self.numbers]}


@dataclass(frozen=True)
class History:
    topic: str
    description: str
    rows: tuple[HistoryRow, ...]

    @property
    def columns(self) -> tuple[str, ...]:
        """Every number some code states on the topic, in the order the codes first state them."""
        out: list[str] = []
        for r in self.rows:
            out += [n for n, _, _ in r.numbers if n not in out]
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        return {"topic": self.topic, "description": self.description, "columns": list(self.columns),
                "codes": [r.to_dict() for r in self.rows]}


def history(topic: str) -> History:
    check_topic(topic)
    from .loader import load_topics  # noqa: F401  (checked above)
    from .resources import laws_dir
    from .yamlsrc import load_yaml

    desc = (load_yaml(laws_dir() / "topics.yaml").data.get("topics") or {}).get(topic, "")
    rows = []
    for cid in sorted(code_ids(), key=lambda c: (load_code(c).year, c)):
        code = load_code(cid)
        laws = [law for law in code.laws if topic in law.topics]
        numbers_of = {law.number for law in laws}
        cited = parameter_laws(code)
        flat = _flatten(dict(code.params))
        numbers = tuple((n, v, cited[n]) for n, v in flat.items() if cited.get(n) in numbers_of)
        rows.append(HistoryRow(cid, code.year, code.title, code.game,
                               tuple(HistoryLaw(law.number, law.heading, law.text, law.missing, law.note,
                                                law.footnotes) for law in laws), numbers))
    return History(topic, str(desc), tuple(rows))
