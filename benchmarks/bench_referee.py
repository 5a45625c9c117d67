"""Referee benchmark: bridgelaw's rulings and conditions against hand-written Python, measured in the same run.

    python benchmarks/bench_referee.py [--quick]

Target 1 of issue 18, each printed as a ratio to its baseline:

- **a ruling** — ``rule(incident)`` and ``rule(incident).to_dict()`` on generated wcny-1913 insufficient bids
  (any dealer, any auction before it, the offence anywhere in the record, condoned by a later call or corrected
  in time now and then) against :func:`hand_rule`, a hand-written function that reads the same incident mapping
  and returns the same dict as ``rule(...).to_dict()`` — laws, options, trace, facts, presumptions — checked
  equal on every incident it times before anything is timed. Target: within 3x.
- **a condition** — a mix of compiled conditions with roles (``offender is adversary``) and functions
  (``partner(offender)``, ``value(call)``, ``opponents(declarer)``) against the same conditions written as Python
  lambdas over the same facts, each checked equal on every fact set. Target: within 1.2x.

Each is timed interleaved with its baseline on the same inputs, chunk by chunk, the best of several runs on each
chunk, with the garbage collector left on. ``rule-engine`` (the ``test`` extra) is timed on the first condition
as a peer where it is installed. Start-up (target 4) is ``benchmarks/bench_startup.py``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "engine"))

import bridgelaw  # noqa: E402
from timing import best_of  # noqa: E402
from bridgelaw.conditions import BOOL, BID, INT, SEAT, Env, Facts, compile_condition  # noqa: E402
from bridgelaw.values import Call, Seat  # noqa: E402

QUICK = "--quick" in sys.argv
CODE = "wcny-1913"
SEATS = "NESW"
SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
OTHER = {"NS": "EW", "EW": "NS"}


# --------------------------------------------------------------------------
# Target 1: a ruling


def insufficient_bids(n: int, seed: int = 50) -> list[dict[str, Any]]:
    """wcny-1913 insufficient bids that can be made sufficient within seven: a random auction (passes and rising
    bids) then a bid not higher than the last; now and then a call after it (the offence then given by
    ``offence_at``: condoned), now and then ``corrected`` given."""
    code = bridgelaw.load_code(CODE)
    tv = code.params["trick_values"]
    strains = [s for s in ("C", "D", "H", "S", "R", "NT") if s in tv]
    bids = [f"{level}{s}" for level in range(1, 8) for s in strains]
    rank = {b: (int(b[0]) * tv[b[1:]], int(b[0])) for b in bids}  # higher by value, then by tricks
    rnd = random.Random(seed)
    out: list[dict[str, Any]] = []
    while len(out) < n:
        auction: list[str] = []
        last = None
        passes = 0  # since the last bid: a third would close the auction, and a record does not go on after it
        for _ in range(rnd.randint(0, 5)):
            ups = [b for b in bids if last is None or rank[b] > rank[last]]
            if (rnd.random() < 0.4 or not ups) and not (last is not None and passes == 2):
                auction.append("P")
                passes += 1
                continue
            if not ups:
                break
            last = rnd.choice(ups[:10])
            auction.append(last)
            passes = 0
        if last is None:
            last = rnd.choice(bids[:12])
            auction.append(last)
        lows = [b for b in bids if rank[b] <= rank[last] and b != last
                and any(rank[f"{lv}{b[1:]}"] > rank[last] for lv in range(1, 8))]
        if not lows:
            continue
        auction.append(rnd.choice(lows))
        inc: dict[str, Any] = {"code": CODE, "irregularity": "insufficient_bid", "dealer": rnd.choice(SEATS),
                               "auction": auction}
        if rnd.random() < 0.25:
            auction.append(rnd.choice(["P", "P", "X", rnd.choice(bids[-12:])]))
            inc["offence_at"] = len(auction) - 2
        if rnd.random() < 0.2:
            inc["facts"] = {"corrected": rnd.random() < 0.5}
        out.append(inc)
    return out


class Hand:
    """The hand-written referee for one kind of one code: wcny-1913's insufficient bid (laws 50, 50b and 52),
    with the strings a hand-written function would carry (law texts, labels) taken from the code once."""

    def __init__(self) -> None:
        code = bridgelaw.load_code(CODE)
        tv = code.params["trick_values"]
        self.tv = dict(tv)
        order = [p for p in code.by_kind["insufficient_bid"]]
        assert [p.full_id for p in order] == [f"{CODE}/50/insufficient-declaration", f"{CODE}/50b/insufficient-condoned",
                                              f"{CODE}/52/corrected-in-time"], [p.full_id for p in order]
        self.ids = [p.full_id for p in order]

        def cite(number: str, footnotes: bool) -> dict[str, Any]:
            law = code.law(number)
            assert law is not None
            d: dict[str, Any] = {"number": number, "text": law.text, "heading": law.heading}
            if footnotes:
                d["footnotes"] = [{"number": n, "text": t} for n, t in law.footnotes]
            d["source"] = law.file
            return d

        self.law50, self.law50b, self.law52 = cite("50", False), cite("50b", True), cite("52", False)
        self.labels = [o.label for o in order[0].options]

    def rule(self, inc: dict[str, Any]) -> dict[str, Any]:
        auction = inc["auction"]
        dealer = inc["dealer"]
        at = inc.get("offence_at", len(auction) - 1)
        d0 = SEATS.index(dealer)
        offender = SEATS[(d0 + at) % 4]
        call = auction[at]
        condoned = at < len(auction) - 1  # the next call is the left-hand adversary's
        prev = next(c for c in reversed(auction[:at]) if c not in ("P", "X", "XX"))
        tv = self.tv
        strain = call[1:]
        pv = int(prev[0]) * tv[prev[1:]]
        level = next(lv for lv in range(1, 8) if lv * tv[strain] > pv or (lv * tv[strain] == pv and lv > int(prev[0])))
        innocent = [c for i, c in enumerate(auction[:at]) if c not in ("P", "X", "XX") and (at - i) % 2 == 1]
        given = inc.get("facts") or {}
        corrected = given.get("corrected", False)
        facts: dict[str, Any] = {"dealer": dealer, "offender": offender, "call": call, "condoned": condoned,
                                 "previous_bid": prev, "impossible": False, "requisite_call": f"{level}{strain}",
                                 "seven_call": f"7{strain}", "innocent_side_has_bid": bool(innocent)}
        if innocent:
            facts["innocent_last_bid"] = innocent[-1]
        facts["corrected"] = corrected
        facts["dummy_called_attention"] = False
        facts["dummy_looked"] = False
        facts["eldest"] = SEATS[(d0 + 1) % 4]
        c, k = ("true" if corrected else "false"), ("true" if condoned else "false")
        because50 = f"not corrected: {'false' if corrected else 'true'} (corrected={c})"
        t50 = {"provision": self.ids[0], "law": "50", "applied": not corrected and not condoned,
               "because": because50 + (f"; overridden by {self.ids[1]}" if condoned and not corrected else "")}
        trace = [t50,
                 {"provision": self.ids[1], "law": "50b", "applied": condoned, "because": f"condoned: {k} (condoned={k})"},
                 {"provision": self.ids[2], "law": "52", "applied": corrected,
                  "because": f"corrected: {c} (corrected={c})"}]
        laws, effects, options = [], [], []
        if condoned:
            laws.append(self.law50b)
            effects.append({"kind": "call_stands"})
        if corrected:
            laws.append(self.law52)
            effects.append({"kind": "no_penalty"})
        if not condoned and not corrected:
            laws.append(self.law50)
            side = OTHER[SIDE[offender]]
            partner = SEATS[(SEATS.index(offender) + 2) % 4]
            options = [
                {"id": "penalize", "chooser": side, "law": "50", "effects": [
                    {"kind": "amend_call", "seat": offender, "call": f"{level}{strain}"},
                    {"kind": "bar", "seat": partner, "calls": "all", "until": "adverse_call"}],
                 "label": self.labels[0], "provision": self.ids[0]},
                {"id": "waive", "chooser": side, "law": "50", "effects": [
                    {"kind": "no_penalty"}, {"kind": "call_stands", "seat": offender}],
                 "label": self.labels[1], "provision": self.ids[0]}]
        return {"code": inc["code"], "irregularity": "insufficient_bid", "laws": laws, "effects": effects,
                "options": options, "questions": [], "notes": [], "trace": trace, "facts": facts,
                "presumed": [] if "corrected" in given else [{"fact": "corrected", "value": False}]}


def bench_rulings() -> None:
    n = 1_000 if QUICK else 5_000
    incidents = insufficient_bids(n)
    hand = Hand()
    for inc in incidents:  # the baseline gives bridgelaw's answer on every incident it times
        want = bridgelaw.rule(inc).to_dict()
        got = hand.rule(inc)
        assert got == want, (inc, got, want)
    rule, hand_rule = bridgelaw.rule, hand.rule

    def ours(sl: slice) -> None:
        for inc in incidents[sl]:
            rule(inc)

    def ours_dict(sl: slice) -> None:
        for inc in incidents[sl]:
            rule(inc).to_dict()

    def theirs(sl: slice) -> None:
        for inc in incidents[sl]:
            hand_rule(inc)

    t_ours, t_dict, t_hand = best_of([ours, ours_dict, theirs], n, 5 if QUICK else 9, 50)
    us = 1e6 / n
    print(f"ruling      {n:,} wcny-1913 insufficient bids, each checked equal to the hand-written function's dict")
    print(f"ruling      hand-written function       {t_hand * us:7.1f} us   (baseline 1.00x)")
    print(f"ruling      rule()                      {t_ours * us:7.1f} us   {t_ours / t_hand:5.2f}x   (target <= 3x)")
    print(f"ruling      rule().to_dict()            {t_dict * us:7.1f} us   {t_dict / t_hand:5.2f}x   (target <= 3x)")


# --------------------------------------------------------------------------
# Target 1: conditions with roles and functions


ENV = Env({"established": BOOL, "revokes_by_side": INT, "offender": SEAT, "declarer": SEAT, "dealer": SEAT,
           "call": BID, "previous_bid": BID, "condoned": BOOL})
#: (condition, the same as a lambda over the same facts)
CONDITIONS: list[tuple[str, Callable[[Facts], Any]]] = [
    ("established and offender is adversary",
     lambda f: f["established"] and f["offender"].side is not f["declarer"].side),
    ("offender is declaring_side and revokes_by_side > 1",
     lambda f: f["offender"].side is f["declarer"].side and f["revokes_by_side"] > 1),
    ("partner(offender) == declarer", lambda f: f["offender"].partner == f["declarer"]),
    ("lho(dealer) == offender or rho(dealer) == offender",
     lambda f: f["dealer"].lho == f["offender"] or f["dealer"].rho == f["offender"]),
    ("opponents(offender) == side(declarer)", lambda f: f["offender"].side.other == f["declarer"].side),
    ("value(call) > value(previous_bid) and not condoned",
     lambda f: f["call"].level * TV[f["call"].strain] > f["previous_bid"].level * TV[f["previous_bid"].strain]
     and not f["condoned"]),
    ("call.level > 3 and offender is not adversary",
     lambda f: f["call"].level > 3 and not (f["offender"].side is not f["declarer"].side)),
]
TV: dict[Any, int] = {}


def fact_sets(n: int, seed: int = 84) -> list[Facts]:
    code = bridgelaw.load_code(CODE)
    rnd = random.Random(seed)
    bids = [Call(f"{lv}{s}") for lv in range(1, 8) for s in ("C", "D", "H", "S", "R", "NT")]
    return [Facts({"established": rnd.random() < 0.7, "revokes_by_side": rnd.randint(1, 3),
                   "offender": rnd.choice(list(Seat)), "declarer": rnd.choice(list(Seat)),
                   "dealer": rnd.choice(list(Seat)), "call": rnd.choice(bids), "previous_bid": rnd.choice(bids),
                   "condoned": rnd.random() < 0.3}, code.value_of) for _ in range(n)]  # as derive() prices bids


def bench_conditions() -> None:
    code = bridgelaw.load_code(CODE)
    env = Env(ENV.facts, code.params)
    TV.update({s: v for s, v in code.params["trick_values"].items() if s != "law"})
    from bridgelaw.values import Strain

    TV.update({Strain(s): v for s, v in list(TV.items())})
    n = 2_000 if QUICK else 10_000
    facts = fact_sets(n)
    compiled = []
    for text, hand in CONDITIONS:
        _, fn = compile_condition(text, env)
        for f in facts:
            assert fn(f) == hand(f), (text, dict(f))
        compiled.append(fn)
    hands = [h for _, h in CONDITIONS]

    def ours(sl: slice) -> None:
        fs = facts[sl]
        for fn in compiled:
            for f in fs:
                fn(f)

    def theirs(sl: slice) -> None:
        fs = facts[sl]
        for fn in hands:
            for f in fs:
                fn(f)

    t_ours, t_hand = best_of([ours, theirs], n, 5 if QUICK else 9, 1_000)
    per = 1e9 / (n * len(CONDITIONS))
    print(f"condition   a mix of {len(CONDITIONS)} with roles and functions, {n:,} fact sets each, checked equal")
    print(f"condition   hand-written lambdas        {t_hand * per:7.0f} ns   (baseline 1.00x)")
    print(f"condition   bridgelaw compiled          {t_ours * per:7.0f} ns   {t_ours / t_hand:5.2f}x   (target <= 1.2x)")
    for (text, hand), fn in zip(CONDITIONS, compiled):
        one = best_of([lambda sl, fn=fn: [fn(f) for f in facts[sl]], lambda sl, h=hand: [h(f) for f in facts[sl]]],
                      n, 3, 1_000)
        print(f"condition     {one[0] / one[1]:5.2f}x   {text}")
    try:
        import rule_engine
    except ImportError:
        print("condition   rule-engine (peer)          (not installed: pip install rule-engine)")
        return
    peer = rule_engine.Rule("established and offender_side != declarer_side")  # it has no roles: sides given
    data = [{"established": f["established"], "offender_side": f["offender"].side.value,
             "declarer_side": f["declarer"].side.value} for f in facts]
    for f, d in zip(facts, data):
        assert peer.matches(d) == bool(compiled[0](f)), d
    t_peer, t_first = best_of([lambda sl: [peer.matches(d) for d in data[sl]],
                               lambda sl: [CONDITIONS[0][1](f) for f in facts[sl]]], n, 3, 1_000)
    print(f"condition   rule-engine (peer), the first {t_peer * 1e9 / n:7.0f} ns   {t_peer / t_first:5.2f}x the lambda")


if __name__ == "__main__":
    print(f"bridgelaw referee benchmarks (python {sys.version.split()[0]}; one process)")
    bench_rulings()
    bench_conditions()
