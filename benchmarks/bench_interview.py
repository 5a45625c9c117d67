"""One round of the referee's interview (``api.interview``, what ``POST /interview`` answers), against a ruling
on the same incident (``api.rule``, what ``POST /rule`` answers), measured in the same run.

    python benchmarks/bench_interview.py [--quick]

A round starts from the answers the client kept: they are given again from the start (each checked as if typed),
the answer is taken, and the reply lists every answer with its step and words, then the step asked or the ruling
with its words. The interviews are those of tests/interviews/interviews.yaml, each answered round by round; the
baseline rules each one's incident once. Printed: rounds per second, rulings per second, and what a round
costs in rulings (best of five runs each, interleaved).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
QUICK = "--quick" in sys.argv


def main() -> None:
    from bridgelaw import api

    cases = yaml.safe_load((ROOT / "tests" / "interviews" / "interviews.yaml").read_text(encoding="utf-8"))
    walks = []  # (the body of each round, in order) for each interview
    for case in cases:
        body: dict = {"answers": {}}
        rounds = []
        for answer in [case["code"], *case["answers"]]:
            body = {**body, "answer": answer}
            rounds.append(body)
            reply = api.interview(body)
            body = {"answers": reply["answers"]}
        assert reply["ruling"] == api.rule(case["incident"]), case["name"]
        walks.append(rounds)
    incidents = [c["incident"] for c in cases]
    bodies = [b for w in walks for b in w]
    repeat = 3 if QUICK else 20

    def rounds() -> float:
        t = time.perf_counter()
        for _ in range(repeat):
            for b in bodies:
                api.interview(b)
        return (time.perf_counter() - t) / (repeat * len(bodies))

    def rulings() -> float:
        t = time.perf_counter()
        for _ in range(repeat * 4):
            for inc in incidents:
                api.rule(inc)
        return (time.perf_counter() - t) / (repeat * 4 * len(incidents))

    round_times, rule_times = [], []
    for _ in range(5):  # interleaved: the machine is shared
        round_times.append(rounds())
        rule_times.append(rulings())
    best_round, best_rule = min(round_times), min(rule_times)
    print(f"interview: {len(bodies)} rounds over {len(walks)} interviews; a round {best_round * 1000:.2f} ms "
          f"({1 / best_round:,.0f} rounds/s); a ruling with its words {best_rule * 1000:.2f} ms "
          f"({1 / best_rule:,.0f} rulings/s); a round costs {best_round / best_rule:.1f} rulings")


if __name__ == "__main__":
    main()
