"""The one place the replay touches the :class:`~bridgelaw.table.Table`.

Everything the replay asks of a table goes through :class:`TableAdapter`: the calls, cards and other acts
(``call``, ``play``, ``expose``, ``claim``, ``correct_revoke``, ``quit_trick``), the answers and remedies
(``answer``, ``apply``), what the table knows (whose turn, the contract, the hands), and the end (the
result and its score). The adapter keeps the :attr:`history` of what was done — each act, the irregularity
the table found, the facts answered and the remedy chosen — from which the writer records rulings and
remedies. When the table keeps such a history itself (``Table.history``), only this module changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..dealresult import deal_result
from ..errors import InputError
from ..facts import higher
from ..pbn.markers import LETS_PASS
from ..scoring import score
from ..table import Answer, Table
from ..values import Call, Ruling, Seat

__all__ = ["TableAdapter", "Act"]

_LHO = {"N": "E", "E": "S", "S": "W", "W": "N"}


@dataclass(slots=True)
class Act:
    """One act at the table, as the history keeps it."""

    verb: str                      # call, card, expose, claim, correct, quit
    seat: str | None
    what: str | None               # the call or card
    ref: str | None = None         # where the record has it (A2, P14, E1)
    kind: str | None = None        # the irregularity the table found, if any
    offender: str | None = None
    ruling: Ruling | None = None
    facts: dict[str, Any] = field(default_factory=dict)     # facts answered
    option: str | None = None      # the remedy chosen (None: the automatic effects, or the one remedy declined)
    by: str | None = None
    suit: str | None = None
    card: str | None = None
    how: str = ""                  # recorded, accepted, first option, ...
    applied: bool = False
    placed: bool = False           # the call or card took its place in the auction or the trick
    trick: int | None = None       # a card's trick
    origin: tuple[str, int] | None = None  # a revoke ruled at this act: the revoker's seat and trick
    calls_before: int = 0
    at: str | None = None          # where the record answers for the ruling (a revoke: the revoking card)


class TableAdapter:
    def __init__(self, code: str, dealer: str, deal: str | None) -> None:
        self.table = Table(code, dealer, deal)
        self._history: list[Act | tuple[str, str, str | None, int]] = []  # a legal card kept as a tuple
        self.condoned_revokes: set[tuple[str, int]] = set()

    @property
    def history(self) -> list[Act]:
        """Every act, in order (a legal card is kept small until the history is asked for)."""
        h = self._history
        for i, a in enumerate(h):
            if type(a) is tuple:
                h[i] = Act("card", a[0], a[1], a[2], placed=True, trick=a[3]) if len(a) == 4 else \
                    Act("call", a[0], a[1], a[2], placed=True)
        return h  # type: ignore[return-value]

    @history.setter
    def history(self, acts: list[Act]) -> None:
        self._history = list(acts)

    def rulings(self) -> list[Act]:
        """The acts the table ruled on."""
        return [a for a in self._history if type(a) is not tuple and a.ruling is not None]  # type: ignore[union-attr]

    # ------------------------------------------------------------- what the table knows

    @property
    def code(self):  # the loaded Code
        return self.table.code

    @property
    def state(self) -> dict[str, Any]:
        return self.table.state

    @property
    def phase(self) -> str:
        return self.table.state["phase"]

    @property
    def straight(self) -> bool:
        return self.table.straight

    @property
    def three(self) -> bool:
        return self.table.three

    def next_caller(self) -> str:
        return self.table.next_caller().value

    def next_player(self) -> str:
        st = self.table.state
        cur = st["current"]
        return _LHO[cur[-1][0]] if cur else st["leader"]

    @property
    def declarer(self) -> str | None:
        return self.table.state["declarer"]

    @property
    def contract(self) -> str | None:
        return self.table.state["contract"]

    @property
    def doubled(self) -> int:
        return self.table.state["doubled"]

    @property
    def trick_number(self) -> int:
        return len(self.table.state["tricks"]) + 1

    @property
    def tricks_played(self) -> int:
        return len(self.table.state["tricks"])

    @property
    def cards_in_trick(self) -> int:
        return len(self.table.state["current"])

    def holds(self, seat: str, card: str) -> bool:
        hands = self.table.state["hands"]
        return hands is None or card in hands[seat]

    def hands_known(self) -> bool:
        return self.table.state["hands"] is not None

    def last_bid(self) -> str | None:
        return next((c for _, c in reversed(self.table.state["calls"]) if c[:1].isdigit()), None)

    def insufficient(self, call: str, than: str | None) -> bool:
        """Whether bid ``call`` is not higher than ``than`` under the code (its own ranking)."""
        if than is None or not call[:1].isdigit():
            return False
        return not higher(self.code, Call(call), Call(than))

    def pending_revoke(self) -> tuple[str, int] | None:
        p = self.table.state["pending"]
        if p and p["kind"] == "revoke" and "revoke" in p:
            return p["offender"], p["revoke"]
        return None

    def pending_offender(self) -> str | None:
        p = self.table.state["pending"]
        return p.get("offender") if p else None

    def pending_ruling(self) -> Ruling | None:
        return self.table.pending()

    # ------------------------------------------------------------- acts

    def _act(self, act: Act, ans: Answer) -> Answer:
        if ans.ruling is not None:
            act.kind, act.ruling, act.offender = ans.kind, ans.ruling, self.pending_offender()
            act.origin = self.pending_revoke()
        self._placed(act)
        self._history.append(act)
        return ans

    def _placed(self, act: Act) -> None:
        st = self.table.state
        if act.verb == "call":
            act.placed = len(st["calls"]) > act.calls_before and st["calls"][act.calls_before][0] == act.seat
        elif act.verb == "card" and act.trick is not None:
            t = act.trick
            cards = st["tricks"][t - 1]["cards"] if t <= len(st["tricks"]) else st["current"] \
                if t == len(st["tricks"]) + 1 else []
            act.placed = [act.seat, act.what] in cards

    def call(self, seat: str, call: str, ref: str | None = None) -> Answer:
        before = len(self.table.state["calls"])
        ans = self.table.call(seat, call)
        if ans.legal and ans.ruling is None:  # the common case: the call is made, in turn
            self._history.append((seat, call, ref))
            return ans
        return self._act(Act("call", seat, call, ref, calls_before=before), ans)

    def play(self, seat: str, card: str, ref: str | None = None) -> Answer:
        trick = len(self.table.state["tricks"]) + 1
        ans = self.table.play(seat, card)
        if ans.legal and ans.ruling is None:  # the common case: the card is in its trick
            self._history.append((seat, card, ref, trick))
            return ans
        return self._act(Act("card", seat, card, ref, trick=trick), ans)

    def expose(self, seat: str, card: str, ref: str | None = None) -> Answer:
        return self._act(Act("expose", seat, card, ref), self.table.expose(seat, card))

    def claim(self, seat: str, ref: str | None = None) -> Answer:
        return self._act(Act("claim", seat, None, ref), self.table.claim(seat))

    def correct_revoke(self, seat: str, ref: str | None = None) -> Answer:
        return self._act(Act("correct", seat, None, ref), self.table.correct_revoke(seat))

    def quit_trick(self) -> Answer:
        ans = self.table.quit_trick()
        if ans.ruling is not None:
            self._act(Act("quit", None, None), ans)
        return ans

    def answer(self, **facts: Any) -> Ruling:
        r = self.table.answer(**facts)
        act = self._ruled_act()
        if act is not None:
            act.facts.update(facts)
            act.ruling = r
        return r

    def apply(self, option: str | None = None, by: str | None = None, suit: str | None = None,
              card: str | None = None, how: str = "") -> Ruling:
        revoke = self.pending_revoke()
        r = self.table.apply(option, by=by, suit=suit, card=card)
        act = self._ruled_act()
        if act is not None:
            act.option, act.by, act.suit, act.card, act.how, act.applied = option, by, suit, card, how, True
            act.ruling = r
            if not act.placed:
                self._placed(act)
        if revoke is not None and not option and all(e.kind.value in LETS_PASS for e in r.effects):
            # ruled without penalty (not claimed in time, §3.9 (C)): it costs nothing when the deal is scored
            self.condoned_revokes.add(revoke)
        return r

    def answer_at(self, ref: str) -> None:
        """Say where the record answers for the pending ruling (its remedy's reference)."""
        act = self._ruled_act()
        if act is not None:
            act.at = ref

    def _ruled_act(self) -> Act | None:
        return next((a for a in reversed(self._history) if type(a) is not tuple and a.ruling is not None  # type: ignore
                     and not a.applied), None)  # type: ignore[union-attr]

    # ------------------------------------------------------------- the end

    def _state_for_result(self, phase: str | None = None) -> dict[str, Any]:
        st = dict(self.table.state)
        if self.condoned_revokes:
            st["revokes"] = [r for r in st["revokes"] if (r["seat"], r["trick"]) not in self.condoned_revokes]
        if phase:
            st["phase"] = phase
        return st

    def result(self) -> dict[str, Any]:
        """The deal as a scoring result (``schema/score.schema.json``)."""
        return deal_result(self.code, self._state_for_result())

    def result_with_tricks(self, tricks: int) -> dict[str, Any]:
        """The deal scored with the declarer's side's tricks as the record states them (a claim, or a
        record with no play): what was played is ruled, the rest comes from ``[Result]``."""
        st = self._state_for_result("done")
        won = sum(1 for t in st["tricks"] if Seat(t["winner"]).side is Seat(st["declarer"]).side)
        lost = len(st["tricks"]) - won
        if not won <= tricks <= 13 - lost:
            raise InputError("Result", f"the declarer's side won {won} and lost {lost} of the tricks played, so "
                                       f"it cannot end with {tricks}")
        res = deal_result(self.code, st)
        res["tricks"] = tricks
        return res

    def score(self, result: dict[str, Any]) -> dict[str, Any]:
        return score(result).to_dict()

    def totals(self, result: dict[str, Any]) -> dict[str, int]:
        """The points each side (or player) scores in all."""
        return {k: v["total"] for k, v in score(result).totals().items()}

    def to_json(self) -> str:
        return self.table.to_json()
