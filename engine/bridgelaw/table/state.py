"""The table's state as typed data, with its JSON view (``schema/table-state.schema.json``).

Every part of the state is a slotted dataclass; ``to_dict`` gives the JSON view and ``from_dict`` reads it
back exactly. Cards and calls are kept as their texts (``"SA"``, ``"4S"``), seats as ``"N" "E" "S" "W"``:
the table's hot path compares strings, never objects. The state is the table's own: a game engine reads it
through :class:`~bridgelaw.table.Table`'s read-only properties, which hand out copies or tuples.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Mapping

__all__ = [
    "SCHEMA_ID", "VERSION", "Phase", "OVER", "ACTION_ARGS", "entry_of", "CallRecord", "Trick", "Obligation", "Revoke", "PenaltyScore",
    "RecordedEffect", "NoDouble", "Doubling", "Pending", "HistoryEntry", "TableState", "RulingRecord", "rulings_of",
]

SCHEMA_ID = "bridgelaw-table-state"
#: The state's version: 2 carries the seal (``seal``) and each bar's calls (``bar_calls``); version 1 did not, though
#: the writers that added them wrote 1 still (a version 1 state with both is read as version 2: persist.py).
VERSION = 3


def seal_of(code: str, variant: str, dealer: str, deal: str | None, detect: bool) -> str:
    """The state's seal: a digest of what its history cannot prove — the code it is played under, its variant, the
    dealer, the deal and whether the table detects — so that a state read back is the state of the code (and the
    deal) it was written with, or is refused naming the field changed (``Table.from_json``)."""
    import hashlib
    import json

    text = json.dumps([code, variant, dealer, deal, detect], separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class Phase(str, enum.Enum):
    """The phases of a deal at the table. The state keeps the plain strings (``"play"``), which compare
    equal to these."""

    AUCTION = "auction"
    PLAY = "play"
    DONE = "done"              # all thirteen tricks played
    NEW_DEAL = "new_deal"      # a remedy annulled the deal
    PASSED_OUT = "passed_out"  # every player passed

    def __str__(self) -> str:
        return self.value


#: the phases in which the deal is over
OVER = frozenset({"done", "new_deal", "passed_out"})


def _opt(d: dict[str, Any], key: str, value: Any) -> None:
    if value is not None:
        d[key] = value


@dataclass(slots=True)
class CallRecord:
    """One call of the auction as it stands: who made it, the call that counts, and — where it was irregular
    — the call as made, the irregularity, the remedy chosen and who chose it."""

    seat: str
    call: str
    made: str | None = None           # the call as made, where a remedy changed it (an insufficient 1S made 4S)
    irregularity: str | None = None
    remedy: str | None = None
    by: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"seat": self.seat, "call": self.call}
        _opt(d, "made", self.made)
        _opt(d, "irregularity", self.irregularity)
        _opt(d, "remedy", self.remedy)
        _opt(d, "by", self.by)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "CallRecord":
        return cls(d["seat"], d["call"], d.get("made"), d.get("irregularity"), d.get("remedy"), d.get("by"))


@dataclass(slots=True)
class Trick:
    """A trick turned and quitted: who led, the cards in the order played, who won it."""

    leader: str
    cards: list[tuple[str, str]]
    winner: str

    def to_dict(self) -> dict[str, Any]:
        return {"leader": self.leader, "cards": [[s, c] for s, c in self.cards], "winner": self.winner}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Trick":
        return cls(d["leader"], [(s, c) for s, c in d["cards"]], d["winner"])


@dataclass(frozen=True, slots=True)
class Obligation:
    """A penalty in force in the play (:mod:`bridgelaw.obligations`): a lead called or forbidden, a card
    called or forbidden, the highest or lowest of the suit led, the trick to be won or lost. ``either``: it
    binds the seat's partner too ("from the offender or his partner", 1913 law 76)."""

    kind: str
    seat: str
    suit: str | None = None
    card: str | None = None
    either: bool = False

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "seat": self.seat}
        _opt(d, "suit", self.suit)
        _opt(d, "card", self.card)
        if self.either:
            d["either"] = True
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Obligation":
        return cls(d["kind"], d["seat"], d.get("suit"), d.get("card"), bool(d.get("either", False)))


@dataclass(slots=True)
class Revoke:
    """A renounce holding the suit led: established once its trick is quitted and a card played to the next;
    ``choice`` is the penalty the innocent side chose; ``penalized``, once its ruling is carried out, whether
    that ruling exacted a penalty the scorer counts (False: ruled without one — not claimed in time, the right
    to it lost, the dummy's renounce — so it costs nothing when the deal is scored)."""

    seat: str
    trick: int
    established: bool = False
    choice: str | None = None
    penalized: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"seat": self.seat, "trick": self.trick, "established": self.established}
        _opt(d, "choice", self.choice)
        _opt(d, "penalized", self.penalized)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Revoke":
        return cls(d["seat"], d["trick"], d["established"], d.get("choice"), d.get("penalized"))


@dataclass(slots=True)
class PenaltyScore:
    """Points a ruling entered: to a side (``NS``/``EW``) or, in three-hand, to a player; ``law`` is the law
    cited, ``kind`` the irregularity it penalized, ``phase`` when (auction or play)."""

    column: str
    points: int
    law: str
    kind: str
    phase: str
    side: str | None = None
    player: str | None = None
    offender: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"column": self.column, "points": self.points, "law": self.law, "kind": self.kind,
                             "phase": self.phase}
        _opt(d, "side", self.side)
        _opt(d, "player", self.player)
        _opt(d, "offender", self.offender)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "PenaltyScore":
        return cls(d["column"], d["points"], d["law"], d["kind"], d["phase"], d.get("side"), d.get("player"),
                   d.get("offender"))


@dataclass(slots=True)
class RecordedEffect:
    """An effect the table records but cannot carry out itself (a procedure, a discretion, a score to be
    corrected, the code silent): the effect as ruled, its law, and the irregularity it answered."""

    effect: dict[str, Any]
    law: str
    irregularity: str

    def to_dict(self) -> dict[str, Any]:
        return {"effect": dict(self.effect), "law": self.law, "irregularity": self.irregularity}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "RecordedEffect":
        return cls(dict(d["effect"]), d["law"], d["irregularity"])


@dataclass(slots=True)
class NoDouble:
    """No further doubling: by ``seat`` (None: by anyone), in the hand or of the declaration at call index
    ``bid``."""

    seat: str | None
    scope: str
    bid: int

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "scope": self.scope, "bid": self.bid}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "NoDouble":
        return cls(d["seat"], d["scope"], d["bid"])


@dataclass(slots=True)
class Doubling:
    """Straight bridge's declaring and doubling: ``step`` declare → partner → double → done; whose ``turn``
    it is to double or not; the last doubler of each side; who has declined since the last double."""

    step: str = "declare"
    turn: str | None = None
    last: dict[str, str] = field(default_factory=dict)
    declined: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.step, "turn": self.turn, "last": dict(self.last), "declined": list(self.declined)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Doubling":
        return cls(d["step"], d["turn"], dict(d["last"]), list(d["declined"]))


@dataclass(slots=True)
class Pending:
    """A ruling that waits: the irregularity, its offender, the facts the table found, the incident ruled
    (with any answers), and what the remedy acts on — the irregular call or card, the cards played together,
    the revoke's trick, the trick of a revoke being corrected, the effects already carried out."""

    kind: str
    offender: str
    facts: dict[str, Any]
    incident: dict[str, Any]
    call: tuple[str, str] | None = None
    card: tuple[str, str] | None = None
    together: list[str] | None = None
    revoke: int | None = None
    correction: int | None = None
    done: list[dict[str, Any]] | None = None
    ruling: Any = field(default=None, compare=False, repr=False)  # the ruling of ``incident``, remembered (not state)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "offender": self.offender, "facts": dict(self.facts),
                "incident": _plain(self.incident),
                "call": list(self.call) if self.call else None, "card": list(self.card) if self.card else None,
                "together": list(self.together) if self.together is not None else None,
                "revoke": self.revoke, "correction": self.correction,
                "done": [dict(e) for e in self.done] if self.done is not None else None}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Pending":
        return cls(d["kind"], d["offender"], dict(d["facts"]), _plain(d["incident"]),
                   tuple(d["call"]) if d["call"] else None, tuple(d["card"]) if d["card"] else None,  # type: ignore[arg-type]
                   list(d["together"]) if d["together"] is not None else None, d["revoke"], d["correction"],
                   [dict(e) for e in d["done"]] if d["done"] is not None else None)

    def copy(self) -> "Pending":
        return Pending.from_dict(self.to_dict())


#: the argument each action takes, in the JSON view of a history entry (beside ``action`` and ``seat``)
ACTION_ARGS: dict[str, tuple[str, ...]] = {
    "call": ("call",), "play": ("card",), "expose": ("card",), "call_card": ("card",),
    "claim": ("threw_cards",), "play_together": ("cards",), "report": ("kind", "facts"),
    "correct_revoke": (), "quit_trick": (), "answer": ("facts",), "apply": ("option", "suit", "card"),
}


@dataclass(slots=True)
class HistoryEntry:
    """One action, as made, and what the table made of it.

    ``action`` is the method (``call``, ``play``, ``expose``, ``claim``, ``play_together``, ``report``,
    ``correct_revoke``, ``quit_trick``, ``call_card``, ``answer``, ``apply``); ``seat`` who acted (for
    ``apply``, who chose); ``args`` the action's own arguments. ``legal`` is False for an irregularity
    detected; ``irregularity``, ``offender``, ``options`` and ``laws`` describe the ruling it raised or made
    due. An ``apply`` entry carries the irregularity remedied, its offender, and ``remedy``: the option id
    chosen, ``declined`` (the one remedy a law offers, not taken), ``effects`` (a ruling without options) or
    ``deferred`` (carried out as far as the law goes until the declarer is known).
    """

    action: str
    seat: str | None
    args: dict[str, Any]
    legal: bool = True
    irregularity: str | None = None
    offender: str | None = None
    options: tuple[str, ...] = ()
    laws: tuple[str, ...] = ()
    remedy: str | None = None
    due: str | None = None            # apply: a ruling the remedy made due (a revoke, a call let stand found insufficient)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"action": self.action}
        if self.seat is not None:
            d["seat"] = self.seat
        for k, v in self.args.items():
            d[k] = _plain(v)
        if self.action not in ("apply", "answer"):
            d["legal"] = self.legal
        _opt(d, "irregularity", self.irregularity)
        _opt(d, "offender", self.offender)
        if self.options:
            d["options"] = list(self.options)
        if self.laws:
            d["laws"] = list(self.laws)
        _opt(d, "remedy", self.remedy)
        _opt(d, "due", self.due)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "HistoryEntry":
        action = d["action"]
        args = {k: _plain(d[k]) for k in ACTION_ARGS[action] if k in d}
        return cls(action, d.get("seat"), args, d.get("legal", True), d.get("irregularity"), d.get("offender"),
                   tuple(d.get("options", ())), tuple(d.get("laws", ())), d.get("remedy"), d.get("due"))

    def __repr__(self) -> str:
        return f"HistoryEntry({self.to_dict()!r})"


@dataclass(slots=True)
class RulingRecord:
    """One ruling as the history tells it (``Table.rulings()``): the entry that raised it — an irregular
    action, an action that made a ruling due, or a remedy that made another due — its index in the history,
    the irregularity and offender, the facts answered, and the ``apply`` entry that carried it out (None while
    it waits)."""

    raised: int
    kind: str
    offender: str | None
    facts: dict[str, Any] = field(default_factory=dict)
    applied: HistoryEntry | None = None


def rulings_of(history: list[Any]) -> list[RulingRecord]:
    """The rulings of a history (its entries, or the table's own list, where a legal call or card is a plain
    tuple and rules nothing), in the order they were made."""
    out: list[RulingRecord] = []
    open_: RulingRecord | None = None
    for i, e in enumerate(history):
        if type(e) is tuple:
            continue
        if e.action == "answer":
            if open_ is not None:
                open_.facts.update(e.args.get("facts") or {})
        elif e.action == "apply":
            if open_ is not None:
                open_.applied, open_.kind, open_.offender = e, e.irregularity or open_.kind, e.offender
            open_ = None
            if e.due:
                open_ = RulingRecord(i, e.due, None)
                out.append(open_)
        elif e.irregularity is not None:
            open_ = RulingRecord(i, e.irregularity, e.offender)
            out.append(open_)
    return out


@dataclass(slots=True)
class TableState:
    """Everything the table knows of one deal. ``hands`` hold what each seat still holds (the declarer plays
    the dummy's cards as the dummy's seat; in three-hand, after T8's reseating, seats are positions)."""

    code: str
    variant: str
    dealer: str
    deal: str | None
    detect: bool = True
    phase: str = "auction"
    hands: dict[str, list[str]] | None = None
    calls: list[CallRecord] = field(default_factory=list)
    bars: dict[str, str] = field(default_factory=dict)
    bar_calls: dict[str, str] = field(default_factory=dict)  # each barred seat: the bar effect's `calls`
    bar_from: dict[str, str] = field(default_factory=dict)  # each barred seat: the irregularity whose ruling barred him
    no_double: list[NoDouble] = field(default_factory=list)
    contract: str | None = None
    doubled: int = 0
    declarer: str | None = None
    maker: str | None = None
    doubling: Doubling | None = None
    dummy_packet: str | None = None
    seating: dict[str, str] | None = None
    leader: str | None = None
    tricks: list[Trick] = field(default_factory=list)
    current: list[tuple[str, str]] = field(default_factory=list)
    exposed: dict[str, list[str]] = field(default_factory=dict)
    obligations: list[Obligation] = field(default_factory=list)
    revokes: list[Revoke] = field(default_factory=list)
    scores: list[PenaltyScore] = field(default_factory=list)
    recorded: list[RecordedEffect] = field(default_factory=list)
    claimed_by: str | None = None
    pending: Pending | None = None
    deferred: list[Pending] = field(default_factory=list)
    next_dealer: str | None = None
    history: list[Any] = field(default_factory=list)  # HistoryEntry, or (action, seat, value) for a legal call or card

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA_ID, "version": VERSION,
            "code": self.code, "variant": self.variant, "dealer": self.dealer, "deal": self.deal,
            "detect": self.detect, "seal": seal_of(self.code, self.variant, self.dealer, self.deal, self.detect),
            "phase": self.phase,
            "hands": {s: list(h) for s, h in self.hands.items()} if self.hands is not None else None,
            "calls": [c.to_dict() for c in self.calls],
            "bars": dict(self.bars),
            "bar_calls": dict(self.bar_calls),
            "bar_from": dict(self.bar_from),
            "no_double": [n.to_dict() for n in self.no_double],
            "contract": self.contract, "doubled": self.doubled, "declarer": self.declarer, "maker": self.maker,
            "doubling": self.doubling.to_dict() if self.doubling is not None else None,
            "dummy_packet": self.dummy_packet,
            "seating": dict(self.seating) if self.seating is not None else None,
            "leader": self.leader,
            "tricks": [t.to_dict() for t in self.tricks],
            "current": [[s, c] for s, c in self.current],
            "exposed": {s: list(c) for s, c in self.exposed.items()},
            "penalties_in_force": [o.to_dict() for o in self.obligations],
            "revokes": [r.to_dict() for r in self.revokes],
            "penalty_scores": [p.to_dict() for p in self.scores],
            "recorded": [r.to_dict() for r in self.recorded],
            "claimed_by": self.claimed_by,
            "pending": self.pending.to_dict() if self.pending is not None else None,
            "deferred": [p.to_dict() for p in self.deferred],
            "next_dealer": self.next_dealer,
            "history": [entry_of(h).to_dict() for h in self.history],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "TableState":
        """The state from its JSON view (validated against the schema first: see ``Table.from_json``)."""
        return cls(
            code=d["code"], variant=d["variant"], dealer=d["dealer"], deal=d["deal"], detect=d["detect"],
            phase=d["phase"],
            hands={s: list(h) for s, h in d["hands"].items()} if d["hands"] is not None else None,
            calls=[CallRecord.from_dict(c) for c in d["calls"]],
            bars=dict(d["bars"]),
            bar_calls=dict(d["bar_calls"]),
            bar_from=dict(d["bar_from"]),
            no_double=[NoDouble.from_dict(n) for n in d["no_double"]],
            contract=d["contract"], doubled=d["doubled"], declarer=d["declarer"], maker=d["maker"],
            doubling=Doubling.from_dict(d["doubling"]) if d["doubling"] is not None else None,
            dummy_packet=d["dummy_packet"],
            seating=dict(d["seating"]) if d["seating"] is not None else None,
            leader=d["leader"],
            tricks=[Trick.from_dict(t) for t in d["tricks"]],
            current=[(s, c) for s, c in d["current"]],
            exposed={s: list(c) for s, c in d["exposed"].items()},
            obligations=[Obligation.from_dict(o) for o in d["penalties_in_force"]],
            revokes=[Revoke.from_dict(r) for r in d["revokes"]],
            scores=[PenaltyScore.from_dict(p) for p in d["penalty_scores"]],
            recorded=[RecordedEffect.from_dict(r) for r in d["recorded"]],
            claimed_by=d["claimed_by"],
            pending=Pending.from_dict(d["pending"]) if d["pending"] is not None else None,
            deferred=[Pending.from_dict(p) for p in d["deferred"]],
            next_dealer=d["next_dealer"],
            history=[HistoryEntry.from_dict(h) for h in d["history"]],
        )

    def copy(self) -> "TableState":
        """A deep copy (the history entries are shared: they are never changed once made)."""
        d = self.to_dict()
        hist = self.history
        d["history"] = []
        out = TableState.from_dict(d)
        out.history = list(hist)
        return out


def entry_of(h: Any) -> HistoryEntry:
    """A history entry: the table keeps a legal call or card as ``(action, seat, value)`` (its hot path),
    anything else as a :class:`HistoryEntry`."""
    if type(h) is tuple:
        return HistoryEntry(h[0], h[1], {ACTION_ARGS[h[0]][0]: h[2]})
    return h  # type: ignore[no-any-return]


def _plain(v: Any) -> Any:
    """JSON data: tuples as lists, mappings as dicts (so a value reads back equal to itself)."""
    if isinstance(v, Mapping):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def legacy_view(st: TableState) -> dict[str, Any]:
    """The state in the shape ``Table.state`` had before the typed state (deprecated; for the modules that
    still read it: calls as ``[seat, call]`` pairs, ``barred``, ``constraints``, ``penalties``)."""
    return {
        "code": st.code, "dealer": st.dealer, "deal": st.deal, "phase": st.phase,
        "hands": {s: list(h) for s, h in st.hands.items()} if st.hands is not None else None,
        "calls": [[c.seat, c.call] for c in st.calls],
        "barred": dict(st.bars), "contract": st.contract, "doubled": st.doubled, "declarer": st.declarer,
        "maker": st.maker, "leader": st.leader,
        "tricks": [t.to_dict() for t in st.tricks], "current": [[s, c] for s, c in st.current],
        "exposed": {s: list(c) for s, c in st.exposed.items()},
        "constraints": [o.to_dict() for o in st.obligations],
        "revokes": [r.to_dict() for r in st.revokes],
        "penalties": [p.to_dict() for p in st.scores],
        "pending": st.pending.to_dict() if st.pending is not None else None,
        "dummy_hand": st.dummy_packet, "seating": dict(st.seating) if st.seating is not None else None,
        "next_dealer": st.next_dealer,
    }
