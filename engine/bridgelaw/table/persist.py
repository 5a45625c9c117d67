"""The history and the state as data: actions pushed as data, taken back (pop), the table copied, the history
replayed onto a fresh table, and the state written and read as JSON (a mixin of the table core)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from ..errors import BridgelawError, MalformedActionError, OutOfTurnError, TableStateError
from ..values import Ruling
from .base import TableParts, Answer
from .state import ACTION_ARGS, VERSION, HistoryEntry, entry_of

if TYPE_CHECKING:  # pragma: no cover
    from ..loader import Code
    from .core import Table
    from .model import Rules
    from .state import TableState

__all__ = ["Persistence"]


class Persistence(TableParts):
    """The table's history, undo, copy and JSON."""


    def push(self, action: Mapping[str, Any] | HistoryEntry) -> Any:
        """Make one action given as data (an entry of :attr:`history`, or its JSON view): ``{"action":
        "call", "seat": "W", "call": "1S"}``, ``{"action": "apply", "option": "penalize", "seat": "N"}``."""
        entry = action if isinstance(action, HistoryEntry) else _entry_from(action, "action")
        return self._do(entry)

    def pop(self) -> HistoryEntry:
        """Take back the last action (a call, a card, a remedy applied, an answer): the state is exactly
        what it was before it. Returns the action taken back."""
        hist = self._st.history
        if not hist:
            raise OutOfTurnError("pop", "nothing to take back: no action has been made")
        last = entry_of(hist[-1])
        self._rebuild(hist[:-1])
        return last

    undo = pop

    def copy(self) -> "Table":
        """An independent copy of the table (state and history)."""
        t = object.__new__(type(self))
        t.code, t.rules, t._legacy, t._tc, t._contract = self.code, self.rules, None, (None, None), None
        t._st = self._st.copy()
        return t

    def _rebuild(self, entries: Sequence[HistoryEntry]) -> None:
        """The state ``entries`` give, replayed onto a fresh table (undo; a failed remedy put right)."""
        st = self._st
        fresh = type(self)(self.code, st.dealer, st.deal, st.detect)
        fresh._replay(entries, "history", verify=False)
        self._st, self._legacy, self._tc, self._contract = fresh._st, None, (None, None), None

    def _restore(self) -> None:
        self._rebuild(list(self._st.history))

    def _do(self, e: HistoryEntry) -> Any:
        a, s, args = e.action, e.seat, e.args
        if a == "call":
            return self.call(s, args.get("call"))  # type: ignore[arg-type]
        if a == "play":
            return self.play(s, args.get("card"))  # type: ignore[arg-type]
        if a == "expose":
            return self.expose(s, args.get("card"))  # type: ignore[arg-type]
        if a == "call_card":
            return self.call_card(s, args.get("card"))  # type: ignore[arg-type]
        if a == "claim":
            return self.claim(s, args.get("threw_cards", False))  # type: ignore[arg-type]
        if a == "play_together":
            return self.play_together(s, args.get("cards"))  # type: ignore[arg-type]
        if a == "report":
            facts = args.get("facts") or {}
            if not isinstance(facts, dict):
                raise MalformedActionError("facts", f"expected an object of facts, got {facts!r}")
            return self.report(args.get("kind"), s, **facts)  # type: ignore[arg-type]
        if a == "correct_revoke":
            return self.correct_revoke(s)  # type: ignore[arg-type]
        if a == "quit_trick":
            return self.quit_trick()
        if a == "answer":
            facts = args.get("facts")
            if not isinstance(facts, dict):
                raise MalformedActionError("facts", f"expected an object of facts, got {facts!r}")
            return self.answer(**facts)
        if a == "apply":
            return self.apply(args.get("option"), suit=args.get("suit"), by=s, card=args.get("card"))
        raise MalformedActionError("action", f"unknown action {a!r}; actions: {', '.join(ACTION_ARGS)}")

    def _replay(self, entries: Iterable[Any], where: str, verify: bool = True) -> None:
        if isinstance(entries, (str, bytes, Mapping)) or not isinstance(entries, Iterable):
            raise TableStateError(where, f"expected a list of actions, got {type(entries).__name__}")
        for i, raw in enumerate(entries):
            at = f"{where}[{i}]"
            e = raw if isinstance(raw, HistoryEntry) else entry_of(raw) if type(raw) is tuple else _entry_from(raw, at)
            try:
                self._do(e)
            except TableStateError:
                raise
            except BridgelawError as err:
                field_name = getattr(err, "field", "")
                raise TableStateError(at, f"{e.action} is refused: {field_name}: {getattr(err, 'message', err)}") from None
            if verify and isinstance(raw, Mapping):
                got = entry_of(self._st.history[-1]).to_dict()
                for k in ("legal", "irregularity", "offender", "options", "remedy"):
                    if k in raw and raw[k] != got.get(k):
                        raise TableStateError(f"{at}.{k}", f"the table gives {got.get(k)!r} here, the history says "
                                              f"{raw[k]!r}")

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> str:
        """The state as JSON (``schema/table-state.schema.json``); :meth:`from_json` reads it back exactly."""
        return json.dumps(self._st.to_dict(), sort_keys=True)

    def to_dict(self) -> dict[str, Any]:
        return self._st.to_dict()

    def to_pbn(self) -> str:
        """The deal as a PBN 2.1 game, with its rulings and the remedies chosen
        (:func:`bridgelaw.replay.history_writer.table_to_pbn`)."""
        from ..replay.history_writer import table_to_pbn

        return table_to_pbn(self)

    @classmethod
    def from_json(cls, text: str | bytes) -> "Table":
        """A table from its JSON state (as :meth:`to_json` writes it): validated against the schema, then
        its history replayed, and every field checked against what the history gives."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as e:
            raise TableStateError("state", f"not JSON: {e}") from None
        except RecursionError:  # arrays or objects nested past what the reader can follow: no state is so deep
            raise TableStateError("state", "not a table state: nested too deep to read (a state is a few "
                                           "levels deep)") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> "Table":
        from .core import Table
        from .schema import validate_state

        data = _versioned(data)
        validate_state(data)
        _check_seal(data)
        t = Table(data["code"], data["dealer"], data["deal"], data["detect"])
        if not isinstance(t, cls):
            raise TableStateError("state.code", f"{data['code']} is played at a {t.variant} table, not {cls.__name__}")
        if data["variant"] != t.variant:
            raise TableStateError("state.variant", f"{data['code']} is played at a {t.variant} table, the state says "
                                  f"{data['variant']!r}")
        t._replay(data["history"], "state.history")
        mine = t._st.to_dict()
        for k in mine:
            if mine[k] != data.get(k):
                raise TableStateError(f"state.{k}", f"the history gives {_short(mine[k])}, the state says "
                                      f"{_short(data.get(k))}")
        return t

    def __repr__(self) -> str:
        st = self._st
        args = [repr(self.code.id), f"dealer={st.dealer!r}"]
        if st.deal is not None:
            args.append(f"deal={st.deal!r}")
        if not st.detect:
            args.append("detect=False")
        if st.history:
            args.append("history=" + repr([{k: v for k, v in h.to_dict().items()
                                            if k in ("action", "seat") or k in ACTION_ARGS[h.action]}
                                           for h in map(entry_of, st.history)]))
        return f"Table({', '.join(args)})"




def _entry_from(raw: Any, where: str) -> HistoryEntry:
    """An action given as data, checked: a known action, its own arguments, a seat where one acts."""
    if not isinstance(raw, Mapping):
        raise MalformedActionError(where, f"expected an action such as {{\"action\": \"call\", \"seat\": \"S\", "
                                   f"\"call\": \"1H\"}}, got {raw!r}")
    action = raw.get("action")
    if action not in ACTION_ARGS:
        from ..errors import did_you_mean

        raise MalformedActionError(f"{where}.action", f"unknown action {action!r}; actions: {', '.join(ACTION_ARGS)}"
                                   + (did_you_mean(action, ACTION_ARGS) if isinstance(action, str) else ""))
    known = {"action", "seat", *ACTION_ARGS[action], "legal", "irregularity", "offender", "options", "laws", "remedy",
             "due"}
    for k in raw:
        if k not in known:
            raise MalformedActionError(f"{where}.{k}", f"{action} takes no {k!r}; it takes "
                                       + ", ".join(["seat", *ACTION_ARGS[action]]))
    try:
        return HistoryEntry.from_dict(raw)
    except (KeyError, TypeError, ValueError) as e:
        raise MalformedActionError(where, f"not an action: {e}") from None


def _check_seal(data: Mapping[str, Any]) -> None:
    """A state is the state of the code, deal, dealer and detection it was written with (its seal): one whose
    ``code`` (or deal, dealer, ...) was changed is refused naming that field, even where its history replays the
    same under the new one."""
    from ..loader import code_ids
    from .state import seal_of

    given = {k: data[k] for k in ("code", "variant", "dealer", "deal", "detect")}
    if seal_of(**given) == data["seal"]:
        return
    for k, others in (("code", code_ids()), ("dealer", "NESW"), ("detect", (True, False))):
        for v in others:
            if v != given[k] and seal_of(**{**given, k: v}) == data["seal"]:
                raise TableStateError(f"state.{k}", f"the state was written with {k} {json.dumps(v)}, and says "
                                      f"{json.dumps(given[k])}: a state is read back as it was written (to play the "
                                      f"deal with {k} {json.dumps(given[k])}, start a table so and replay its "
                                      "history)")
    raise TableStateError("state.seal", "the state's code, variant, dealer, deal or detect is not what it was "
                          "written with (the seal is of others): read back a state as Table.to_json wrote it")


def _short(v: Any) -> str:
    text = json.dumps(v, sort_keys=True)
    return text if len(text) <= 120 else text[:117] + "..."


#: What a state of an earlier version lacks, by version: such a state is refused naming them.
_LACKS = {1: ("seal", "bar_calls", "bar_from"), 2: ("bar_from",)}


def _versioned(data: Any) -> Any:
    """A state of this version as it stands; one of an earlier version written with all it lacked (the writers
    that added the seal, the bars' calls and their sources still wrote the old number) read as this version; any other refused, naming its version and what
    would be right."""
    if not isinstance(data, dict) or "version" not in data:
        return data  # (the schema names what is missing)
    v = data["version"]
    if type(v) is int and v == VERSION:
        return data
    lacks = _LACKS.get(v) if type(v) is int else None
    if lacks is not None:
        missing = [k for k in lacks if k not in data]
        if not missing:
            return {**data, "version": VERSION}
        raise TableStateError("state.version", f"{v}: a state written before version {VERSION}, without "
                              f"{' or '.join(missing)}, which this bridgelaw's states carry; replay its history "
                              f"onto a new table (Table(code, dealer=..., deal=..., history=...)) and write it again")
    raise TableStateError("state.version", f"expected {VERSION} (the table state this bridgelaw writes), got "
                          f"{_short(v)}")

