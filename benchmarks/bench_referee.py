"""Benchmarks for the referee, printed as ratios against baselines measured in the same run.

    python benchmarks/bench_referee.py [--quick]

1. A compiled condition vs the same condition as a hand-written Python lambda
   (target: at most 1.5x), with the `rule-engine` package on the same
   condition as a peer (if installed).
2. Full rulings per second over a mix of casebook incidents, on one core
   (target: at least 20,000/s), against the cost of a dict copy per incident.
3. Cold start of `bridgelaw rule` as a process (target: at most 0.3 s),
   against a bare `python -c pass` measured in the same run.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "engine"))

import bridgelaw  # noqa: E402
from bridgelaw.casebook import load_cases  # noqa: E402
from bridgelaw.conditions import BOOL, INT, SEAT, Env, Facts, compile_condition  # noqa: E402
from bridgelaw.facts import derive, parse_incident  # noqa: E402
from bridgelaw.referee import _rule  # noqa: E402
from bridgelaw.values import Seat  # noqa: E402

QUICK = "--quick" in sys.argv
CONDITION = "established and revokes_by_side > 1 and offender == declarer"


def best(stmt, number: int, repeat: int = 5) -> float:
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number


def bench_condition() -> None:
    env = Env({"established": BOOL, "revokes_by_side": INT, "offender": SEAT, "declarer": SEAT})
    _, compiled = compile_condition(CONDITION, env)
    facts = Facts({"established": True, "revokes_by_side": 2, "offender": Seat.E, "declarer": Seat.E}, lambda c: 0)
    hand = lambda f: f["established"] and f["revokes_by_side"] > 1 and f["offender"] == f["declarer"]  # noqa: E731
    assert compiled(facts) == hand(facts) is True
    n = 50_000 if QUICK else 300_000
    t_hand = best(lambda: hand(facts), n)
    t_ours = best(lambda: compiled(facts), n)
    print(f"condition   hand-written lambda  {t_hand * 1e9:8.0f} ns   (baseline 1.00x)")
    print(f"condition   bridgelaw compiled   {t_ours * 1e9:8.0f} ns   {t_ours / t_hand:5.2f}x   (target <= 1.5x)")
    try:
        import rule_engine
    except ImportError:
        print("condition   rule-engine          (not installed: pip install rule-engine)")
        return
    r = rule_engine.Rule(CONDITION.replace("offender == declarer", "offender == declarer"))
    data = {"established": True, "revokes_by_side": 2, "offender": "E", "declarer": "E"}
    assert r.matches(data)
    t_peer = best(lambda: r.matches(data), max(n // 10, 5000))
    print(f"condition   rule-engine (peer)   {t_peer * 1e9:8.0f} ns   {t_peer / t_hand:5.2f}x")


def bench_rulings() -> None:
    cases = [c for c in load_cases(ROOT / "rulings")]
    incidents = [c.incident for c in cases]
    for inc in incidents:
        bridgelaw.rule(inc)  # warm: codes loaded and compiled
    n = len(incidents)
    loops = 3 if QUICK else 20

    def run_all():
        for inc in incidents:
            bridgelaw.rule(inc)

    def copy_all():
        for inc in incidents:
            dict(inc)

    t = min(timeit.repeat(run_all, number=loops, repeat=3)) / (loops * n)
    t0 = min(timeit.repeat(copy_all, number=loops, repeat=3)) / (loops * n)
    print(f"rulings     {n} casebook incidents: {1 / t:10,.0f} rulings/s   "
          f"({t * 1e6:.1f} us each; {t / t0:,.0f}x a dict copy)   (target >= 20,000/s)")
    # the referee alone, facts already derived (what a game engine pays per decision when it keeps facts)
    derived = []
    for inc in incidents:
        i = parse_incident(inc)
        code = bridgelaw.load_code(i.code)
        kind, facts, notes = derive(code, i)
        derived.append((code, kind, facts, notes))

    def referee_only():
        for code, kind, facts, notes in derived:
            _rule(code, kind, facts, list(notes))

    t2 = min(timeit.repeat(referee_only, number=loops, repeat=3)) / (loops * n)
    print(f"rulings     referee pass only:      {1 / t2:10,.0f} rulings/s")


def bench_cold_start() -> None:
    case = sorted((ROOT / "rulings" / "wcny-1913").glob("*.yaml"))[0]
    exe = sys.executable
    subprocess.run([exe, "-m", "bridgelaw.cli", "rule", str(case)], capture_output=True, check=True)  # fill caches
    runs = 3 if QUICK else 7

    def timed(argv):
        out = []
        for _ in range(runs):
            t = time.perf_counter()
            subprocess.run(argv, capture_output=True, check=True)
            out.append(time.perf_counter() - t)
        return statistics.median(out)

    base = timed([exe, "-c", "pass"])
    ours = timed([exe, "-m", "bridgelaw.cli", "rule", str(case)])
    print(f"cold start  python -c pass           {base:6.3f} s   (baseline 1.00x)")
    print(f"cold start  bridgelaw rule FILE      {ours:6.3f} s   {ours / base:5.2f}x   (target <= 0.3 s)")


if __name__ == "__main__":
    print(f"bridgelaw benchmarks (python {sys.version.split()[0]}; one process, one core)")
    bench_condition()
    bench_rulings()
    bench_cold_start()
