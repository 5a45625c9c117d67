"""``bridgelaw check``: load every code, the kinds, and the casebook (rulings, scores, and the table's whole
sequences); collect every error."""

from __future__ import annotations

from .casebook import load_cases
from .errors import BridgelawError
from .loader import clear_cache, code_ids, load_code, load_kinds
from .resources import rulings_dir

__all__ = ["run_check"]


def run_check() -> tuple[list[str], str]:
    problems: list[str] = []
    clear_cache()
    try:
        load_kinds()
    except BridgelawError as e:
        return [str(e)], "check failed: laws/kinds.yaml"
    ids = code_ids()
    provisions = 0
    for cid in ids:
        try:
            provisions += len(load_code(cid).provisions)
        except BridgelawError as e:
            problems.append(str(e))
    cases = 0
    root = rulings_dir()
    if root is not None:
        from .referee import rule

        try:
            loaded = load_cases(root) + load_cases(root, scores=True)
        except BridgelawError as e:
            problems.append(str(e))
            loaded = []
        from .scoring import score

        for case in loaded:
            cases += 1
            try:
                (rule if case.kind == "ruling" else score)(case.incident)
            except BridgelawError as e:
                m = case.source.mark(("incident",))
                problems.append(f"{case.path}:{m.line}:{m.column}: incident does not rule: {e}")
    scenarios = 0
    if root is not None:  # the table casebook: whole sequences played at the table (rulings/<code>/table/)
        from .table.scenarios import load_scenarios, run_scenario

        try:
            played = load_scenarios(root)
        except BridgelawError as e:
            problems.append(str(e))
            played = []
        for sc in played:
            scenarios += 1
            try:
                problems += [f"{sc.path}: {d}" for d in run_scenario(sc)]
            except BridgelawError as e:
                problems.append(f"{sc.path}: {e}")
    summary = (f"checked {len(ids)} codes ({provisions} provisions) and {cases + scenarios} casebook rulings "
               f"({scenarios} of them played at the table): "
               + (f"{len(problems)} problem(s)" if problems else "all load"))
    return problems, summary
