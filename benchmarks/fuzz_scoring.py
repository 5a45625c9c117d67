"""The larger fuzz run of `bridgelaw.score` (tests/test_score_sheets.py runs a few hundred of these in CI).

    python benchmarks/fuzz_scoring.py [N]     # default 10,000 score sheets

Mostly-valid sheets under every code (tests/scoresheets.py), one field spoiled now and then. Counts: exceptions
other than the library's own, scores naming a seat the code lacks, scores whose totals do not add up (or whose
JSON view the schema refuses), sheets the schema refuses but the engine scored. Every count should be 0.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "engine"))
sys.path.insert(0, str(ROOT / "tests"))

import bridgelaw  # noqa: E402
from bridgelaw import InputError  # noqa: E402
from scoresheets import problems, random_sheet, schema_valid  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description="The larger fuzz run of bridgelaw.score.", allow_abbrev=False)
    ap.add_argument("n", nargs="?", type=int, default=10_000, help="how many score sheets (default 10,000)")
    n = ap.parse_args().n
    rnd = random.Random(1913)
    counts = {"scored": 0, "refused": 0, "foreign exceptions": 0, "seats that do not exist": 0,
              "totals that do not add up": 0, "scored though the schema refuses": 0}
    for _ in range(n):
        sheet = random_sheet(rnd)
        try:
            s = bridgelaw.score(sheet)
        except InputError:
            counts["refused"] += 1
            continue
        except Exception as e:  # noqa: BLE001 - counting what must not happen
            counts["foreign exceptions"] += 1
            print("foreign:", type(e).__name__, e, sheet)
            continue
        counts["scored"] += 1
        found = problems(sheet, s)
        counts["seats that do not exist"] += any("not one of" in p or "names a seat" in p for p in found)
        counts["totals that do not add up"] += any("totals" in p or "schema" in p for p in found)
        counts["scored though the schema refuses"] += not schema_valid(sheet)
    print(f"{n:,} score sheets: " + ", ".join(f"{v:,} {k}" for k, v in counts.items()))
    bad = sum(v for k, v in counts.items() if k not in ("scored", "refused"))
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
