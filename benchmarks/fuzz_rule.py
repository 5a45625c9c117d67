"""The larger fuzz run of `bridgelaw.rule` (tests/test_incident_edge.py runs a few hundred of these in CI).

    python benchmarks/fuzz_rule.py [N [SEED]]     # default 10,000 incidents, seed 1913

Mostly-valid incidents under every code, three-hand a third of the time, one field spoiled now and then
(tests/incidents.py). Counts: exceptions other than the library's own (a law-file error raised by an incident
counts: the incident was not checked), rulings naming a seat the code lacks, refusals that name no field of the
incident, rulings on incidents the published schema refuses. Every count should be 0. Also shown: how many were
ruled and refused, and how many schema-valid incidents the engine refused (for what only the code can tell).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "engine"))
sys.path.insert(0, str(ROOT / "tests"))

import bridgelaw  # noqa: E402
from bridgelaw import BridgelawError, InputError  # noqa: E402
from incidents import random_incident, refusal_problems, ruling_problems, schema_valid  # noqa: E402

BAD = ("foreign exceptions", "answers about seats that do not exist", "refusals naming no field",
       "ruled though the schema refuses")


def main() -> int:
    ap = argparse.ArgumentParser(description="The larger fuzz run of bridgelaw.rule.", allow_abbrev=False)
    ap.add_argument("n", nargs="?", type=int, default=10_000, help="how many incidents (default 10,000)")
    ap.add_argument("seed", nargs="?", type=int, default=1913, help="the random seed (default 1913)")
    args = ap.parse_args()
    n = args.n
    rnd = random.Random(args.seed)
    counts = dict.fromkeys(("ruled", "refused", "refused though schema-valid", *BAD), 0)
    shown = 0
    start = time.perf_counter()
    for _ in range(n):
        inc = random_incident(rnd)
        found: list[str] = []
        try:
            r = bridgelaw.rule(inc)
        except InputError as e:
            counts["refused"] += 1
            counts["refused though schema-valid"] += schema_valid(inc)
            found = refusal_problems(e, inc)
            counts["refusals naming no field"] += bool(found)
        except (BridgelawError, Exception) as e:  # noqa: BLE001 - counting what must not happen
            counts["foreign exceptions"] += 1
            found = [f"{type(e).__name__}: {e}"]
        else:
            counts["ruled"] += 1
            found = ruling_problems(inc, r)
            counts["answers about seats that do not exist"] += bool(found)
            if not schema_valid(inc):
                counts["ruled though the schema refuses"] += 1
                found.append("ruled though the schema refuses it")
        if found and shown < 10:
            shown += 1
            print("  ", "; ".join(found), inc)
    took = time.perf_counter() - start
    print(f"{n:,} incidents in {took:.1f} s: " + ", ".join(f"{v:,} {k}" for k, v in counts.items()))
    return 1 if any(counts[k] for k in BAD) else 0


if __name__ == "__main__":
    raise SystemExit(main())
