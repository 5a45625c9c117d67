"""The rulings diff over every pair of four-player auction codes: the whole fact space against its
equivalence classes (bridgelaw.factspace), incidents tried and time, and a check that both find the same
differences with the same counts.

    python benchmarks/ruling_diff_all.py [--jobs N]

The baseline (every incident of the space) is measured in the same run. Exit status 1 if the two
generators find different differences, or the classes try fewer than ten times fewer incidents in all.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))

import bridgelaw  # noqa: E402
from bridgelaw.rulingdiff import ruling_diff  # noqa: E402

TARGET = 10.0  # the classes try at least this many times fewer incidents


def differences(res: object) -> dict[tuple[object, ...], int]:
    return {(g.kind, g.a_only, g.b_only): g.count for g in res.groups}  # type: ignore[attr-defined]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=1, help="processes for the classes run (the output is the same)")
    args = ap.parse_args()
    codes = [c for c in bridgelaw.codes() if bridgelaw.load_code(c).game == "auction"
             and bridgelaw.load_code(c).players == 4]
    total = {"all": [0, 0.0], "classes": [0, 0.0]}
    same = True
    print(f"{'pair':<45}{'every incident':>22}{'classes':>22}{'fewer':>8}  same differences")
    for a, b in itertools.combinations(codes, 2):
        got = {}
        for how, jobs in (("all", 1), ("classes", args.jobs)):
            t = time.perf_counter()
            res = ruling_diff(a, b, generator=how, jobs=jobs)
            dt = time.perf_counter() - t
            total[how][0] += res.incidents
            total[how][1] += dt
            got[how] = (res, dt)
        (ra, ta), (rc, tc) = got["all"], got["classes"]
        ok = differences(ra) == differences(rc) and ra.incidents == rc.space
        same &= ok
        print(f"{a + ' vs ' + b:<45}{ra.incidents:>9} in {ta:6.2f} s   {rc.incidents:>8} in {tc:6.2f} s"
              f"{ra.incidents / max(rc.incidents, 1):>7.1f}x  {'yes' if ok else 'NO'} ({len(rc.groups)} groups)")
    ratio = total["all"][0] / max(total["classes"][0], 1)
    print(f"all pairs: every incident {total['all'][0]} in {total['all'][1]:.1f} s; classes {total['classes'][0]} "
          f"in {total['classes'][1]:.1f} s ({ratio:.1f}x fewer incidents, target {TARGET:.0f}x); "
          f"the same differences: {'yes' if same else 'NO'}")
    return 0 if same and ratio >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
