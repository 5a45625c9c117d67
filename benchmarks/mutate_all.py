"""Every one-edit mutation of the shipped law files (tests/mutants.py), and what became of each.

    python benchmarks/mutate_all.py [--family F] [--code C] [--sample N [--seed S]] [--json out.json]

Prints counts by family and outcome, every bad outcome (a silent change, an error without its place, a
traceback, a hang), and the time taken. The test suite runs a fixed sample of the same mutations
(tests/test_mutations.py); this runs them all, or (``--sample N``) N of them drawn at random with the seed S
(default 1), so the figure can be measured again within minutes — the same N and S draw the same mutations.
Exit status 1 if any outcome is bad.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import mutants  # noqa: E402


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of mutations, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1 mutation, got {n}")
    return n


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--family")
    ap.add_argument("--code")
    ap.add_argument("--json")
    ap.add_argument("--sample", type=_positive, metavar="N", help="run N mutations drawn at random (after --family "
                    "and --code)")
    ap.add_argument("--seed", type=int, default=1, metavar="S", help="the seed --sample draws with (default 1)")
    args = ap.parse_args()
    if args.seed != 1 and args.sample is None:
        ap.error("--seed draws a sample: give --sample N with it")
    ms = mutants.all_mutations()
    if args.family:
        ms = [m for m in ms if m.family == args.family]
    if args.code:
        ms = [m for m in ms if m.code == args.code]
    if not ms:
        ap.error("no mutation is of that family and code (families: "
                 f"{', '.join(sorted({m.family for m in mutants.all_mutations()}))})")
    total = len(ms)
    if args.sample is not None and args.sample < total:
        keep = set(random.Random(args.seed).sample(range(total), args.sample))
        ms = [m for i, m in enumerate(ms) if i in keep]  # in their usual order
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bridgelaw-mutants-") as tmp:
        lab = mutants.Lab(Path(tmp))
        outcomes = []
        for i, m in enumerate(ms):
            outcomes.append(lab.run(m))
            if (i + 1) % 200 == 0:
                print(f"  ... {i + 1} of {len(ms)} ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    print(mutants.report(outcomes))
    bad = sum(o.result not in mutants.GOOD for o in outcomes)
    drawn = f" (a sample of {total}, seed {args.seed})" if len(outcomes) < total else ""
    print(f"\n{len(outcomes)} mutations{drawn} in {time.perf_counter() - t0:.1f} s: {bad} bad "
          f"({100 * bad / len(outcomes):.1f}%)")
    if args.json:
        Path(args.json).write_text(json.dumps([{"family": o.mutation.family, "code": o.mutation.code,
                                                "file": o.mutation.file, "what": o.mutation.what,
                                                "result": o.result, "detail": o.detail,
                                                "seconds": round(o.seconds, 3)} for o in outcomes], indent=1))
    return 1 if any(o.result not in mutants.GOOD for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
