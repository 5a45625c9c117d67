"""Every one-edit mutation of the shipped law files (tests/mutants.py), and what became of each.

    python benchmarks/mutate_all.py [--family F] [--code C] [--json out.json]

Prints counts by family and outcome, every bad outcome (a silent change, an error without its place, a
traceback, a hang), and the time taken. The test suite runs a fixed sample of the same mutations
(tests/test_mutations.py); this runs them all. Exit status 1 if any outcome is bad.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import mutants  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--family")
    ap.add_argument("--code")
    ap.add_argument("--json")
    args = ap.parse_args()
    ms = mutants.all_mutations()
    if args.family:
        ms = [m for m in ms if m.family == args.family]
    if args.code:
        ms = [m for m in ms if m.code == args.code]
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bridgelaw-mutants-") as tmp:
        lab = mutants.Lab(Path(tmp))
        outcomes = []
        for i, m in enumerate(ms):
            outcomes.append(lab.run(m))
            if (i + 1) % 200 == 0:
                print(f"  ... {i + 1} of {len(ms)} ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    print(mutants.report(outcomes))
    print(f"\n{len(outcomes)} mutations in {time.perf_counter() - t0:.1f} s")
    if args.json:
        Path(args.json).write_text(json.dumps([{"family": o.mutation.family, "code": o.mutation.code,
                                                "file": o.mutation.file, "what": o.mutation.what,
                                                "result": o.result, "detail": o.detail,
                                                "seconds": round(o.seconds, 3)} for o in outcomes], indent=1))
    return 1 if any(o.result not in mutants.GOOD for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
