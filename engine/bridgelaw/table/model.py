"""What the table reads from a code's data, bound once per code.

The table never writes a number or a law of its own: the strains and what a trick is worth, the highest
level, whether the dealer must declare, the doubling limit, and (``code.yaml``'s ``table:`` block, see
``schema/code.schema.json``) the seat model of a code that differs at the table — each with the law that
states it, read here and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from ..loader import Code
from ..values import MAX_CALL_LEVEL
from ..yamlsrc import load_yaml

__all__ = ["Rules", "rules_of", "SeatRule"]


@dataclass(frozen=True)
class SeatRule:
    """One entry of a code's seat model (``table:`` in code.yaml): what it says, and its law."""

    law: str
    opposite: str | None = None
    footnote: str | None = None

    def cite(self) -> str:
        return f"law {self.law}" + (f", note {self.footnote}" if self.footnote else "")


@dataclass(frozen=True)
class Rules:
    """A code's table data: ``rules_of(code)``."""

    code: str
    strains: tuple[str, ...]               # in the order of their value, as calls write them (S C D H R NT)
    trick_values: Mapping[str, int]        # strain -> points a trick above six
    max_level: int
    dealer_must_declare: bool
    dealer_must_declare_law: str
    doubling_limit: int | None             # straight bridge: the most a trick may be worth by doubling
    doubling_limit_law: str
    seats: Mapping[str, SeatRule]          # the seat model: dummy_packet, own_account, declarer, reseat

    def law(self, name: str) -> str:
        """The law a seat-model entry rests on, as words ("law T4"); empty where the code has none."""
        rule = self.seats.get(name)
        return rule.cite() if rule else ""


_RULES: dict[int, tuple[Code, Rules]] = {}


def rules_of(code: Code) -> Rules:
    """The table data of ``code`` (bound on first use; a reloaded code is bound afresh)."""
    hit = _RULES.get(id(code))
    if hit is not None and hit[0] is code:
        return hit[1]
    params = code.params
    limit = params.get("doubling_limit")
    rules = Rules(
        code=code.id,
        strains=tuple(sorted(params["trick_values"], key=lambda k: int(params["trick_values"][k]))),
        trick_values={k: int(v) for k, v in params["trick_values"].items()},
        max_level=int(params.get("max_level", MAX_CALL_LEVEL)),
        dealer_must_declare=bool(params.get("dealer_must_declare")),
        dealer_must_declare_law=_law(params, "dealer_must_declare"),
        doubling_limit=limit if isinstance(limit, int) and not isinstance(limit, bool) else None,
        doubling_limit_law=_law(params, "doubling_limit"),
        seats=_seat_model(code),
    )
    _RULES[id(code)] = (code, rules)
    return rules


def _law(params: Any, name: str) -> str:
    """The law that states a parameter (its citation in parameters.yaml); empty where the code states none."""
    try:
        return str(params.law(name))
    except (KeyError, AttributeError):
        return ""


def _seat_model(code: Code) -> dict[str, SeatRule]:
    """The ``table:`` block of the code's code.yaml, inherited through ``extends`` (a code restates only what
    differs). The loader has validated code.yaml against its schema already."""
    from ..loader import load_code

    chain: list[Code] = []
    c: Code | None = code
    while c is not None:
        chain.append(c)
        c = load_code(c.extends) if c.extends else None
    model: dict[str, SeatRule] = {}
    for c in reversed(chain):
        path = Path(c.folder) / "code.yaml"
        data: Any = load_yaml(path, str(path)).data if path.is_file() else None
        for name, spec in ((data or {}).get("table") or {}).items():
            model[name] = SeatRule(law=str(spec["law"]), opposite=spec.get("opposite"), footnote=spec.get("footnote"))
    return model
