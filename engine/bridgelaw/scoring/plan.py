"""A code's scoring plan, compiled once: for each contract it meets, the numbers, laws and reason templates the
scorer needs, resolved from the code's :class:`~.rules.Rules` into plain values.

:class:`Plan` is made once per code; :meth:`Plan.contract` reads a contract text once (through
:func:`.sheet.parse_contract`, which checks it against the code) into a :class:`ContractPlan` and keeps it. A
contract plan holds what scoring that contract takes — the odd-trick value as doubled and its law, the tricks
needed, the doubled bonus, the under-trick penalty and whether the one-spade limit can reach it, and the honours
rows a partnership can score in its strain — so that scoring a deal is arithmetic on its fields and tuples for its
rows (:data:`.model.Row`): no dictionary of parameters, no citation look-up and no string formatting. Every value
here is one :mod:`.rules` read from the code's parameters, with the law that states it.
"""

from __future__ import annotations

from typing import Any

from ..values import Side, Strain
from .model import Contract, Row
from .rules import DOUBLINGS, Rules, one_spade_limit_applies
from .sheet import unstated_honours_note

__all__ = ["Plan", "ContractPlan", "plan_of"]

_MAX_CONTRACTS = 2048  # contract texts kept per code (a sheet may spell one contract several ways)


class ContractPlan:
    """One contract under one code, resolved (see the module docstring)."""

    __slots__ = ("contract", "book", "level", "strain", "doubled", "value", "per", "needed", "trick_law",
                 "trick_shown", "trick_suffix", "bonus", "bonus_law", "dbl", "under", "under_law", "limit_if_original",
                 "limit_always", "nt", "honours", "played", "dealt", "unstated")

    def __init__(self, plan: "Plan", contract: Contract) -> None:
        rules = plan.rules
        strain = contract.strain._value_
        doubled = contract.doubled
        self.contract = contract
        self.book = rules.book
        self.level = contract.level
        self.strain = strain
        self.doubled = doubled
        self.nt = contract.strain is Strain.NT
        self.value = value = rules.values[strain]
        self.per = rules.trick_value(strain, doubled)  # an odd trick as doubled
        if rules.auction:
            mult = rules.mult[doubled]
            self.needed: int | None = rules.book + (contract.level or 0)
            self.trick_law = rules.value_law if mult == 1 else rules.mult_law
            self.trick_shown = value  # "... tricks at 8 x2"
            self.trick_suffix = " x%d" % mult if mult > 1 else ""
        else:  # straight bridge: either side scores the odd tricks it wins, at the trick's value as doubled
            self.needed = None
            self.trick_law = rules.value_law if doubled == 1 else rules.mult_law
            self.trick_shown = self.per  # "... tricks at 16 (8 x2)"
            self.trick_suffix = " (%d x%d)" % (value, doubled) if doubled > 1 else ""
        bonus = rules.doubled_bonus[doubled] if doubled and rules.auction and rules.doubled_bonus else None
        self.bonus: int | None = bonus[0] if bonus is not None else None  # per trick made, doubled
        self.bonus_law = bonus[1] if bonus is not None else ""
        self.dbl = DOUBLINGS[doubled] if rules.auction else ""
        under = rules.undertrick[doubled] if rules.auction and rules.undertrick is not None else None
        self.under: int | None = under[0] if under is not None else None
        self.under_law = under[1] if under is not None else ""
        level = contract.level
        self.limit_always = one_spade_limit_applies(rules, level, strain, doubled, False)
        self.limit_if_original = one_spade_limit_applies(rules, level, strain, doubled, True)
        self.honours = plan.honour_rows(strain)
        self.unstated = unstated_honours_note(rules, contract.strain)  # the note on a sheet giving no honours
        #: a plain deal's play (no revokes) by (the declaring side, its tricks, the original one spade, the note on
        #: it): its rows, the premium's rows (duplicate) and its notes, as :func:`.core.play` and
        #: :func:`.core.premium` make them (remembered: they depend on nothing else; rows are immutable)
        self.played: dict[tuple[str, int, bool, str], tuple[tuple[Row, ...], tuple[Row, ...], tuple[str, ...]]] = {}
        #: a deal played out at a table with revokes, a chicane or a note on its tricks (four-hand), by every fact
        #: of its sheet but the contract (this plan's): its rows, notes and the sides capped, as
        #: :func:`.core.score_sheet` scores them (remembered: they depend on nothing else; rows are immutable)
        self.dealt: dict[tuple[Any, ...], tuple[tuple[Row, ...], tuple[str, ...], tuple[Any, ...]]] = {}

    def limited(self, original: bool) -> bool:
        """Whether the code's limit on the loss on one spade covers this contract, the dealer's original
        declaration or not."""
        return self.limit_always or (original and self.limit_if_original)


class Plan:
    """A code's scoring plan: its :class:`Rules` and the contracts read so far."""

    __slots__ = ("rules", "code", "id", "contracts", "_honours", "four_hand", "premium")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.code = rules.code
        self.id = rules.id
        self.contracts: dict[str, ContractPlan] = {}
        self._honours: dict[str, dict[tuple[str, str], Row | tuple[()]]] = {}
        self.four_hand = not rules.three
        self.premium = rules.premium is not None  # duplicate: a premium for the trick points of one deal

    def contract(self, text: str, field_name: str = "contract") -> ContractPlan:
        """The plan of a contract text (an InputError naming ``field_name`` if the code has no such contract)."""
        hit = self.contracts.get(text)
        if hit is not None:
            return hit
        from .sheet import parse_contract

        cp = ContractPlan(self, parse_contract(self.rules, text, field_name))
        if len(self.contracts) < _MAX_CONTRACTS:
            self.contracts[text] = cp
        return cp

    def honour_rows(self, strain: str) -> dict[tuple[str, str], Row | tuple[()]]:
        """Four hands: the row a partnership's honours score in ``strain``, by (side, holding) — ``()`` for a
        holding that scores nothing there. Honours count at the trick's undoubled value (at no trumps, aces
        score the points the code's table states)."""
        hit = self._honours.get(strain)
        if hit is not None:
            return hit
        rules = self.rules
        rows: dict[tuple[str, str], Row | tuple[()]] = {}
        nt = strain == "NT"
        value = rules.values[strain]
        for key, (n, law) in (rules.honours_no_trump if nt else rules.honours_trump).items():
            words = key.replace("_", " ")
            for side in (Side.NS, Side.EW):
                if nt:
                    rows[(side._value_, key)] = (side._value_, "honour", n, "honours: %s", law, "honours", words)
                elif n * value:
                    rows[(side._value_, key)] = (side._value_, "honour", n * value, "honours: %s (%d x %d)", law,
                                                 "honours", words, n, value)
                else:
                    rows[(side._value_, key)] = ()
        self._honours[strain] = rows
        return rows


def plan_of(rules: Rules) -> Plan:
    """The code's plan, made once (kept on its rules)."""
    hit = rules.__dict__.get("_plan")
    if hit is None:
        hit = Plan(rules)
        object.__setattr__(rules, "_plan", hit)
    return hit  # type: ignore[no-any-return]
