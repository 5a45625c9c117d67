"""Mostly-valid incidents for fuzzing `bridgelaw.rule`, and the checks every ruling and every refusal must pass.

Used by tests/test_incident_edge.py (through hypothesis) and benchmarks/fuzz_rule.py (10,000 incidents). An incident
is valid under its code, or valid but for one field spoiled; about a third are three-hand, where seats lack players.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SEATS = "NESW"
CALLS = [f"{n}{s}" for n in range(1, 8) for s in ("C", "D", "H", "S", "R", "NT")] + ["P", "X", "XX"]
CARDS = [s + r for s in "CDHS" for r in "23456789TJQKA"]
#: Values that break a field: wrong types, out of bounds, spellings the edge refuses, too long.
GARBAGE: list[Any] = [None, True, False, -1, 0, 10 ** 7, 3.5, "", "n", "NS", "1s", "pass", "garbage", "x" * 300,
                      [], {}, ["N", "N"], [1, 2], {"a": 1}, "9" * 50]
#: The fields an incident's refusal may name: its own fields, and paths into them.
FIELDS = ("code", "irregularity", "dealer", "declarer", "offender", "auction", "callers", "offence_at", "facts",
          "note", "call", "incident")
#: Effects that act on the play, in the seats of the play (three-hand: the table reseated, the dummy opposite the
#: declarer); the rest of an auction ruling acts on the auction, where the dummy packet lies opposite the dealer.
#: (`in_play` in schema/effects.yaml.)
def play_effects() -> frozenset[str]:
    from bridgelaw.vocabulary import vocabulary

    return vocabulary().play_kinds()


@lru_cache(maxsize=None)
def catalogue() -> tuple[Any, Any]:
    from bridgelaw.loader import load_kinds

    return load_kinds()


@lru_cache(maxsize=None)
def codes() -> tuple[Any, ...]:
    from bridgelaw import load_code
    from bridgelaw.loader import code_ids

    return tuple(load_code(c) for c in code_ids())


def _value(rnd: random.Random, spec: Any) -> Any:
    t = spec.type
    if t.choices:
        return rnd.choice(t.choices)
    if t.name == "int":
        lo, hi = spec.bounds or (0, 20)
        return rnd.randint(lo, min(hi, lo + 20))
    return {
        "bool": lambda: rnd.random() < 0.5, "seat": lambda: rnd.choice(SEATS), "side": lambda: rnd.choice(["NS", "EW"]),
        "call": lambda: rnd.choice(CALLS), "bid": lambda: rnd.choice(CALLS[:-3]), "card": lambda: rnd.choice(CARDS),
        "suit": lambda: rnd.choice("CDHS"), "str": lambda: "x",
    }[t.name]()


#: Records that end in the kind's offending call, in a four-hand rotation from the dealer.
TEMPLATES = {
    "double_of_partner": [["1H", "P", "X"], ["1S", "2H", "P", "P", "X"]],
    "redouble_of_partner_double": [["1H", "X", "P", "XX"], ["P", "1C", "X", "P", "XX"]],
    "extra_redouble": [["1H", "X", "XX", "P", "P", "XX"], ["1D", "X", "P", "P", "X"], ["2C", "X", "XX", "X"]],
    "insufficient_bid": [["1H", "1D"], ["1S", "P", "1H"], ["1NT", "2S", "2C"]],
    "impossible_bid": [["7S", "7H"], ["6NT", "P", "7NT", "7C"]],
    "call_while_barred": [["1H", "P", "2C"], ["P", "X"]],
}


def _auction(rnd: random.Random, kind: str) -> list[str]:
    """Calls from the dealer on: a plausible record for the kind (its offending call last), or any calls."""
    if kind in TEMPLATES and rnd.random() < 0.5:
        return list(rnd.choice(TEMPLATES[kind]))
    n = rnd.randint(0, 6)
    calls: list[str] = []
    level = 1
    for _ in range(n):
        r = rnd.random()
        if r < 0.5:
            calls.append("P")
        elif r < 0.9 and level <= 7:
            calls.append(f"{level}{rnd.choice('CDHS')}")
            level += rnd.random() < 0.5
        else:
            calls.append(rnd.choice(["X", "XX"]))
    last = {"insufficient_bid": "1C", "impossible_bid": "7C", "double_of_partner": "X",
            "redouble_of_partner_double": "XX", "extra_redouble": "XX", "call_while_barred": "1H"}.get(kind)
    if last is not None and rnd.random() < 0.8:
        calls.append(last)
    return calls


def random_incident(rnd: random.Random) -> dict[str, Any]:
    """An incident under a random code (three-hand a third of the time), mostly valid, now and then one field
    spoiled."""
    common, kinds = catalogue()
    three = [c for c in codes() if c.players == 3]
    code = rnd.choice(three) if three and rnd.random() < 0.33 else rnd.choice(codes())
    answered = sorted(code.by_kind)
    kid = rnd.choice(answered) if rnd.random() < 0.95 else rnd.choice(sorted(kinds))
    kind = kinds[kid]
    inc: dict[str, Any] = {"code": code.id, "irregularity": kid}
    for name, p in (("dealer", 0.8), ("offender", 0.7), ("declarer", 0.4)):
        if rnd.random() < p:
            inc[name] = rnd.choice(SEATS)
    if kind.phase == "auction" and rnd.random() < 0.5 and code.game == "auction":
        inc["dealer"] = inc.get("dealer") or rnd.choice(SEATS)
        inc["auction"] = _auction(rnd, kid)
        if inc["auction"] and rnd.random() < 0.15:
            inc["callers"] = [rnd.choice(SEATS) for _ in inc["auction"]]
        if inc["auction"] and rnd.random() < 0.1:
            inc["offence_at"] = rnd.randrange(len(inc["auction"]))
    facts = {n: _value(rnd, s) for n, s in kind.facts.items() if rnd.random() < 0.4 and not s.derive}
    if rnd.random() < 0.1:
        facts.update({n: _value(rnd, s) for n, s in common.items() if n in ("dummy_called_attention", "dummy_looked")})
    if facts or rnd.random() < 0.1:
        inc["facts"] = facts
    if rnd.random() < 0.25:  # one field spoiled
        r = rnd.random()
        if r < 0.15 and inc.get("auction"):
            inc["auction"][rnd.randrange(len(inc["auction"]))] = rnd.choice(GARBAGE + ["8C", "1Z", "1h"])
        elif r < 0.35 and inc.get("facts"):
            inc["facts"][rnd.choice(list(inc["facts"]))] = rnd.choice(GARBAGE)
        elif r < 0.4:
            inc.setdefault("facts", {})["establised"] = True
        else:
            key = rnd.choice(list(inc) + ["facts", "auction", "callers", "offence_at", "note", "offendr"])
            inc[key] = rnd.choice(GARBAGE)
    return inc


# --------------------------------------------------------------------------
# What must hold of every answer


@lru_cache(maxsize=None)
def validator() -> Any:
    import jsonschema

    return jsonschema.Draft202012Validator(json.loads((ROOT / "schema" / "incident.schema.json").read_text()))


def schema_valid(incident: Any) -> bool:
    return bool(validator().is_valid(incident))


def refusal_problems(e: Any, incident: Any = None) -> list[str]:
    """A refusal names a field of the incident (or a path into one, or the unknown key it refuses) and says
    something, on one line."""
    field = e.field
    ok = field in FIELDS or field.startswith(("facts.", "auction[", "callers[")) or \
        (isinstance(incident, dict) and field in map(str, incident))
    out = [] if ok else [f"the refusal names {field!r}, not a field of the incident"]
    if not e.message or "\n" in str(e):
        out.append(f"the refusal is not one line: {str(e)!r}")
    return out


def _seat(v: Any) -> str | None:
    v = getattr(v, "value", v)
    return v if isinstance(v, str) and v in ("N", "E", "S", "W") else None


def ruling_problems(incident: dict[str, Any], r: Any) -> list[str]:
    """Where a ruling names a seat the code lacks: three-hand's dummy packet (opposite the dealer) in the
    auction, a side where there are no partners, the dummy as a player in the play."""
    from bridgelaw import load_code

    code = load_code(r.code)
    _, kinds = catalogue()
    kind = kinds[r.irregularity]
    out: list[str] = []
    if code.players == 4:
        return out
    f = r.facts
    dealer, declarer, offender = (_seat(f.get(n)) if n in f else None for n in ("dealer", "declarer", "offender"))
    opposite = {"N": "S", "S": "N", "E": "W", "W": "E"}
    packet = opposite[dealer] if dealer else None
    dummy = opposite[declarer] if declarer else None
    in_play = kind.phase in ("play", "scoring")
    if declarer is not None and declarer == packet:
        out.append(f"the declarer {declarer} is the dummy packet")
    if offender is not None:
        if not in_play and offender == packet:
            out.append(f"the offender {offender} is the dummy packet")
        if in_play and offender == dummy and not kind.by_hand:
            out.append(f"the offender {offender} is the dummy, who is no player, in a {kind.id}")
    if not code.seats.allows(kind):
        out.append(f"a ruling on {kind.id}, which cannot happen under {code.id}")
    named = [("effect", e) for e in r.effects] + [(f"option {o.id}", e) for o in r.options for e in o.effects]
    for where, e in named:
        kind_name = e.kind.value
        for name, v in e.args:
            if kind_name in play_effects():
                continue
            if not in_play:
                if name in ("side", "from", "to"):
                    out.append(f"{where}: {kind_name}.{name} names a side, {v}, where there are no partners")
                elif _seat(v) is not None and v == packet:
                    out.append(f"{where}: {kind_name}.{name} names the dummy packet {v}")
            elif kind_name == "score" and name == "player" and v == dummy:
                out.append(f"{where}: the dummy {v} scores")
    for o in r.options:
        for c in (o.chooser if isinstance(o.chooser, tuple) else (o.chooser,)):
            if not in_play and (len(c) == 2 or c == packet):
                out.append(f"option {o.id}: chosen by {c}, " + ("a side, where there are no partners" if len(c) == 2
                                                                else "the dummy packet"))
            if in_play and c == dummy:
                out.append(f"option {o.id}: chosen by the dummy {c}")
    return out
