"""``bridgelaw check``: load every code and the kinds, then rule the whole casebook; collect every problem.

A data edit that loads but changes a ruling does not pass as "all load": every
casebook ruling is ruled and compared with what it expects (laws, effects,
options, questions, the provisions applied), every scoring case scored and
compared, every table scenario (``rulings/<code>/table/``: a whole sequence
played at the table) played and checked, and each difference is reported at
the case's ``path:line:col``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .casebook import compare, compare_score, load_cases
from .errors import BridgelawError
from .loader import check_tree, clear_cache, code_ids, load_code, load_kinds
from .resources import rulings_dir

__all__ = ["run_check", "CheckReport"]


@dataclass
class CheckReport:
    codes: int = 0
    provisions: int = 0
    cases: int = 0
    scenarios: int = 0               # of the cases, those played at the table
    law_errors: list[str] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)

    @property
    def problems(self) -> list[str]:
        return self.law_errors + self.mismatches

    def summary(self) -> str:
        head = (f"checked {self.codes} codes ({self.provisions} provisions) and {self.cases} casebook rulings "
                f"({self.scenarios} of them played at the table): ")
        if not self.problems:
            return head + "all load, and every ruling is as its case expects"
        parts = []
        if self.law_errors:
            parts.append(f"{len(self.law_errors)} file(s) refused")
        if self.mismatches:
            parts.append(f"{len(self.mismatches)} ruling(s) differ from the casebook")
        return head + f"{len(self.problems)} problem(s): " + ", ".join(parts)


def run_check() -> tuple[list[str], str]:
    report = check()
    return report.problems, report.summary()


def check() -> CheckReport:
    report = CheckReport()
    clear_cache()
    report.law_errors += [str(e) for e in check_tree()]
    try:
        load_kinds()
    except BridgelawError as e:
        report.law_errors.append(str(e))
        return report
    ids = code_ids()
    report.codes = len(ids)
    for cid in ids:
        try:
            report.provisions += len(load_code(cid).provisions)
        except BridgelawError as e:
            report.law_errors.append(str(e))
    root = rulings_dir()
    if root is None:
        return report
    from .referee import rule
    from .scoring import score

    try:
        loaded = load_cases(root) + load_cases(root, scores=True)
    except BridgelawError as e:
        report.law_errors.append(str(e))
        loaded = []
    for case in loaded:
        report.cases += 1
        m = case.source.mark(("incident",) if case.kind == "ruling" else ("result",))
        where = f"{case.path}:{m.line}:{m.column}"
        try:
            if case.kind == "ruling":
                diffs = compare(rule(case.incident), case.expect)
            else:
                diffs = compare_score(score(case.incident), case.expect)
        except BridgelawError as e:
            report.mismatches.append(f"{where}: the case does not rule: {str(e).splitlines()[0]}")
            continue
        if diffs:
            at = case.source.mark(("expect",))
            report.mismatches.append(f"{case.path}:{at.line}:{at.column}: the ruling differs from what the case "
                                     f"expects ({case.name}): " + "; ".join(diffs))
    from .table.scenarios import load_scenarios, run_scenario

    try:
        played = load_scenarios(root)
    except BridgelawError as e:
        report.law_errors.append(str(e))
        played = []
    for sc in played:
        report.cases += 1
        report.scenarios += 1
        try:
            report.mismatches += [f"{sc.path}: {d}" for d in run_scenario(sc)]
        except BridgelawError as e:
            report.mismatches.append(f"{sc.path}: the scenario does not play: {str(e).splitlines()[0]}")
    return report
