"""The table casebook: whole sequences at the table as data (``rulings/<code>/table/*.yaml``).

A scenario::

    name: An insufficient bid penalized is made sufficient and bars the offender's partner
    story: >
      ... what happened at the table ...
    table: {code: wcny-1913, dealer: S, deal: "N:KJ73.T73.Q84.K95 ..."}
    actions:
      - {seat: S, call: 1H}
      - {seat: W, call: 1S, expect: {legal: false, irregularity: insufficient_bid, options: [penalize, waive]}}
      - {apply: penalize, by: N}
      - {then: {auction: [1H, 4S], bars: {E: adverse_call}, turn: N}}
      - {calls: P P P}                 # each call by the player whose turn it is
      - {cards: CA C5 C4 C3}           # each card by the player whose turn it is
      - {play_out: true}               # each in turn plays the first card legal_cards() gives, to the end
    expect: {phase: done, contract: 4S, declarer: W, score: {entries_include: [...]}}

An action is one of: ``{seat, call}``, ``{seat, card}``, ``{calls}``, ``{cards}``, ``{play_out}``,
``{apply, by, suit, card}``, ``{answer: {fact: value}}``, ``{expose, seat}``, ``{claim, threw_cards}``,
``{call_card, seat}``, ``{play_together, seat}``, ``{correct_revoke}``, ``{quit_trick}``,
``{report, seat, facts}``, ``{pop}``, ``{then}``; any may carry ``expect`` (what the table answered:
``legal``, ``irregularity``, ``options``, ``laws``, ``effects``, ``error`` — the class of error the table
must raise) and ``then`` (the state after it). What a state check may name is in ``STATE_CHECKS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from ..errors import BridgelawError, LawFileError, did_you_mean
from ..values import Ruling
from ..yamlsrc import Source, load_yaml
from .core import Answer, Table

__all__ = ["Scenario", "load_scenarios", "run_scenario", "STATE_CHECKS"]

_KEYS = ("name", "story", "cites", "table", "actions", "expect")
_ACTIONS = ("call", "card", "calls", "cards", "play_out", "apply", "answer", "expose", "claim", "call_card",
            "play_together", "correct_revoke", "quit_trick", "report", "pop", "then")
_ACTION_KEYS = {"seat", "by", "suit", "card", "threw_cards", "facts", "expect", "then", *_ACTIONS}
_ANSWER_KEYS = ("legal", "irregularity", "options", "laws", "effects", "error", "choosers", "note_includes")


def _score_check(t: Table, want: Mapping[str, Any]) -> list[str]:
    got = t.score().to_dict()
    out = []
    for e in want.get("entries_include", ()):
        e = {**e, "law": str(e["law"])} if "law" in e else dict(e)
        if not any(all(g.get(k) == v for k, v in e.items()) for g in got["entries"]):
            out.append(f"score: no entry matching {e} in {got['entries']}")
    for side, cols in (want.get("totals") or {}).items():
        for col, v in cols.items():
            have = got["totals"].get(side, {}).get(col)
            if have != v:
                out.append(f"score.totals.{side}.{col}: expected {v}, got {have}")
    return out


#: what a state check may name, and how the table answers it (as plain data)
STATE_CHECKS: dict[str, Callable[[Table], Any]] = {
    "phase": lambda t: t.phase.value,
    "turn": lambda t: t.turn.value if t.turn else None,
    "contract": lambda t: t.contract.text if t.contract else None,
    "declarer": lambda t: t.declarer.value if t.declarer else None,
    "dummy": lambda t: t.dummy.value if t.dummy else None,
    "auction": lambda t: list(t.auction),
    "calls": lambda t: [c.to_dict() for c in t.calls],
    "bars": lambda t: t.bars,
    "bar_calls": lambda t: t.bar_calls,
    "bar_from": lambda t: t.bar_from,
    "exposed": lambda t: {s: list(t.exposed(s)) for s in "NESW" if t.exposed(s)},
    "penalties_in_force": lambda t: [o.to_dict() for o in t.penalties_in_force],
    "revokes": lambda t: [r.to_dict() for r in t.revokes],
    "penalty_scores": lambda t: list(t.penalty_scores),
    "recorded": lambda t: [r["effect"]["kind"] for r in t.recorded],
    "current_trick": lambda t: [[s.value, c] for s, c in t.current_trick],
    "tricks_won": lambda t: {side: sum(1 for tr in t.tricks if tr.winner.side.value == side) for side in ("NS", "EW")},
    "tricks_played": lambda t: len(t.tricks),
    "leader": lambda t: t.leader.value if t.leader else None,
    "hands": lambda t: {s: list(t.hand(s)) for s in "NESW"},
    "legal_calls": lambda t: t.legal_calls(),
    "legal_cards": lambda t: t.legal_cards(),
    "pending": lambda t: t.pending_ruling.irregularity if t.pending_ruling else None,
    "seating": lambda t: t.seating(),
    "next_dealer": lambda t: t.next_dealer.value if t.next_dealer else None,
    "result": lambda t: t.result(),
    "remedies": lambda t: [h.remedy for h in t.history if h.action == "apply"],
    "score": lambda t: None,  # compared by _score_check
}


@dataclass(frozen=True)
class Scenario:
    path: str
    name: str
    story: str
    table: Mapping[str, Any]
    actions: tuple[Mapping[str, Any], ...]
    expect: Mapping[str, Any]
    source: Source


def load_scenarios(root: Path) -> list[Scenario]:
    """Every scenario under ``root`` (the ``rulings/`` folder): ``<code>/table/*.yaml``."""
    out = []
    for path in sorted(root.glob("*/table/*.yaml")):
        rel = str(path.relative_to(root.parent))
        out.append(_read(load_yaml(path, rel), path.parent.parent.name))
    return out


def _read(src: Source, folder: str) -> Scenario:
    d = src.data
    if not isinstance(d, dict):
        raise LawFileError("expected a mapping with name, story, table, actions, expect", src.path, 1, 1)
    for k in d:
        if k not in _KEYS:
            raise src.error((k,), f"unknown key {k!r}; allowed keys: {', '.join(_KEYS)}" + did_you_mean(str(k), _KEYS))
    for k in ("name", "story", "table", "actions", "expect"):
        if k not in d:
            raise src.error((), f"a table scenario needs {k!r}")
    table = d["table"]
    if not isinstance(table, dict) or table.get("code") != folder:
        raise src.error(("table",), f"a scenario in rulings/{folder}/table/ is played under {folder}: "
                        f"table: {{code: {folder}, dealer: ..., deal: ...}}")
    for k in table:
        if k not in ("code", "dealer", "deal"):
            raise src.error(("table", k), f"unknown key {k!r}; a table has code, dealer, deal")
    if not isinstance(d["actions"], list) or not d["actions"]:
        raise src.error(("actions",), "expected a list of actions")
    for i, a in enumerate(d["actions"]):
        if not isinstance(a, dict):
            raise src.error(("actions", i), f"expected an action (one of {', '.join(_ACTIONS)}), got {a!r}")
        if len(_action_names(a)) != 1:
            raise src.error(("actions", i), f"an action names one of {', '.join(_ACTIONS)}; got {sorted(a)}")
        for k in a:
            if k not in _ACTION_KEYS:
                raise src.error(("actions", i, k), f"unknown key {k!r}" + did_you_mean(str(k), _ACTION_KEYS))
        _check_state_keys(src, ("actions", i, "then"), a.get("then"))
        for k in (a.get("expect") or {}):
            if k not in _ANSWER_KEYS:
                raise src.error(("actions", i, "expect", k), f"unknown key {k!r}; an answer has "
                                + ", ".join(_ANSWER_KEYS) + did_you_mean(str(k), _ANSWER_KEYS))
    _check_state_keys(src, ("expect",), d["expect"])
    return Scenario(src.path, str(d["name"]), str(d["story"]), table, tuple(d["actions"]), d["expect"], src)


def _action_names(a: Mapping[str, Any]) -> list[str]:
    """The action an entry names ("card" is the card played unless another action names it)."""
    names = [k for k in a if k in _ACTIONS]
    if names == ["then"]:
        return names
    names = [k for k in names if k != "then"]
    return [k for k in names if k != "card"] if len(names) > 1 else names


def _check_state_keys(src: Source, key: tuple[Any, ...], want: Any) -> None:
    if want is None:
        return
    if not isinstance(want, dict):
        raise src.error(key, f"expected a mapping of state checks ({', '.join(STATE_CHECKS)})")
    for k in want:
        if k not in STATE_CHECKS:
            raise src.error(key + (k,), f"unknown state check {k!r}; checks: {', '.join(STATE_CHECKS)}"
                            + did_you_mean(str(k), STATE_CHECKS))


def run_scenario(sc: Scenario) -> list[str]:
    """Play the scenario; the differences from what it expects (empty: it plays as written)."""
    tb = sc.table
    t = Table(tb["code"], tb.get("dealer", "S"), tb.get("deal"))
    diffs: list[str] = []
    for i, a in enumerate(sc.actions):
        where = f"actions[{i}]"
        want = a.get("expect") or {}
        try:
            got = _act(t, a)
        except BridgelawError as e:
            if want.get("error") == type(e).__name__:
                continue
            diffs.append(f"{where}: {type(e).__name__}: {e}")
            return diffs
        if "error" in want:
            diffs.append(f"{where}: expected {want['error']}, the table took it")
        diffs += [f"{where}: {d}" for d in _answer_diffs(got, want)]
        diffs += [f"{where}: {d}" for d in _state_diffs(t, a.get("then"))]
    diffs += [f"expect: {d}" for d in _state_diffs(t, sc.expect)]
    t.check()
    again = Table.from_json(t.to_json())
    if again.to_json() != t.to_json():
        diffs.append("the state does not read back from its JSON exactly")
    return diffs


def _act(t: Table, a: Mapping[str, Any]) -> Any:
    seat = a.get("seat")
    if "call" in a:
        return t.call(seat, str(a["call"]))  # type: ignore[arg-type]
    if "calls" in a:
        ans = None
        for c in str(a["calls"]).split():
            ans = t.call(t.turn, c)  # type: ignore[arg-type]
        return ans
    if "cards" in a:
        ans = None
        for c in str(a["cards"]).split():
            ans = t.play(t.turn, c)  # type: ignore[arg-type]
        return ans
    if "play_out" in a:
        ans = None
        while t.turn is not None and t.phase == "play":
            ans = t.play(t.turn, t.legal_cards()[0])
        return ans
    if "apply" in a:
        return t.apply(a["apply"], suit=a.get("suit"), by=a.get("by"), card=a.get("card"))
    if "answer" in a:
        return t.answer(**a["answer"])
    if "expose" in a:
        return t.expose(seat, a["expose"])  # type: ignore[arg-type]
    if "claim" in a:
        return t.claim(a["claim"], threw_cards=bool(a.get("threw_cards", False)))
    if "call_card" in a:
        return t.call_card(seat, a["call_card"])  # type: ignore[arg-type]
    if "play_together" in a:
        return t.play_together(seat, a["play_together"])  # type: ignore[arg-type]
    if "correct_revoke" in a:
        return t.correct_revoke(a["correct_revoke"])
    if "quit_trick" in a:
        return t.quit_trick()
    if "report" in a:
        return t.report(a["report"], seat, **(a.get("facts") or {}))  # type: ignore[arg-type]
    if "pop" in a:
        return t.pop()
    if "card" in a:
        return t.play(seat, a["card"])  # type: ignore[arg-type]
    return None  # {then: ...}


def _answer_diffs(got: Any, want: Mapping[str, Any]) -> list[str]:
    if not want:
        return []
    ruling: Ruling | None = got.ruling if isinstance(got, Answer) else got if isinstance(got, Ruling) else None
    out = []
    if "legal" in want and (not isinstance(got, Answer) or got.legal != want["legal"]):
        out.append(f"legal: expected {want['legal']}, got {getattr(got, 'legal', got)!r}")
    if "irregularity" in want:
        have = ruling.irregularity if ruling else None
        if have != want["irregularity"]:
            out.append(f"irregularity: expected {want['irregularity']}, got {have}")
    if ruling is None:
        return out + [f"{k}: no ruling" for k in ("options", "laws", "effects", "choosers") if k in want]
    if "options" in want and list(dict.fromkeys(o.id for o in ruling.options)) != list(want["options"]):
        out.append(f"options: expected {want['options']}, got {[o.id for o in ruling.options]}")
    have = sorted({c for o in ruling.options for c in (o.chooser if isinstance(o.chooser, tuple) else (o.chooser,))})
    if "choosers" in want and have != sorted(want["choosers"]):
        out.append(f"choosers: expected {want['choosers']}, got {have}")
    if "laws" in want and [c.number for c in ruling.laws] != [str(x) for x in want["laws"]]:
        out.append(f"laws: expected {want['laws']}, got {[c.number for c in ruling.laws]}")
    if "effects" in want and [e.to_dict() for e in ruling.effects] != list(want["effects"]):
        out.append(f"effects: expected {want['effects']}, got {[e.to_dict() for e in ruling.effects]}")
    if "note_includes" in want and want["note_includes"] not in getattr(got, "note", ""):
        out.append(f"note: expected it to include {want['note_includes']!r}, got {getattr(got, 'note', '')!r}")
    return out


def _state_diffs(t: Table, want: Mapping[str, Any] | None) -> list[str]:
    out: list[str] = []
    for k, v in (want or {}).items():
        if k == "score":
            out += _score_check(t, v)
            continue
        have = STATE_CHECKS[k](t)
        if k == "hands":
            have = {s: have[s] for s in v}
        if k == "result":
            miss = {f: (v[f], have.get(f)) for f in v if have.get(f) != v[f]}
            if miss:
                out.append(f"result: " + "; ".join(f"{f}: expected {a!r}, got {b!r}" for f, (a, b) in miss.items()))
            continue
        if have != v:
            out.append(f"{k}: expected {v!r}, got {have!r}")
    return out
