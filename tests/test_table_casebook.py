"""The table casebook (rulings/<code>/table/): whole sequences at the table, one test item per scenario,
and at least one scenario for every penalty the table enforces in every family of codes."""

from __future__ import annotations

import pytest

import bridgelaw
from bridgelaw.table.scenarios import load_scenarios, run_scenario

from conftest import ROOT

SCENARIOS = load_scenarios(ROOT / "rulings")


@pytest.mark.parametrize("sc", SCENARIOS, ids=[s.path.split("/", 1)[1][:-5] for s in SCENARIOS])
def test_table_scenario(sc):
    assert run_scenario(sc) == []


def _family(code) -> tuple[str, str]:
    """A family of codes: one body's codes (the Whist Club, the Portland Club, the American club code: the
    first words of the authority) played at one kind of table (find_variant)."""
    from bridgelaw.table import find_variant

    return " ".join(code.authority.split()[:2]), find_variant(code).variant


# the penalties the table enforces, each the effect kinds that carry it out (the rest: one kind, one penalty)
PENALTIES = {
    "highest or lowest of the suit led": {"play_highest", "play_lowest"},
    "win or lose the trick": {"win_trick", "lose_trick"},
    "a lead called or forbidden": {"call_lead", "forbid_lead"},
    "the revoke penalty at the score": {"transfer_tricks", "no_trick_score", "honours_only"},
}


def _penalty(kind: str) -> str:
    return next((name for name, kinds in PENALTIES.items() if kind in kinds), kind)


def test_every_penalty_the_table_enforces_has_a_scenario_in_every_family(monkeypatch):
    """Each penalty the table carries out (not an effect it only records), that a provision of a family's
    codes gives for an irregularity the table detects, is carried out in some scenario of that family."""
    from bridgelaw.table import effects
    from bridgelaw.table.core import DETECTED

    carried: dict[tuple[str, str], set[str]] = {}
    current: list[tuple[str, str]] = []
    for kind, fn in list(effects.HANDLERS.items()):
        def counting(t, e, act, _fn=fn, _kind=kind):
            carried.setdefault(current[0], set()).add(_penalty(_kind))
            return _fn(t, e, act)
        monkeypatch.setitem(effects.HANDLERS, kind, counting)
    for sc in SCENARIOS:
        current[:] = [_family(bridgelaw.load_code(sc.table["code"]))]
        assert run_scenario(sc) == []
    wanted: dict[tuple[str, str], set[str]] = {}
    for code_id in bridgelaw.codes():
        code = bridgelaw.load_code(code_id)
        for p in code.provisions:
            if set(p.kinds) & DETECTED:
                kinds = {str(e.kind) for e in p.effects} | {str(e.kind) for o in p.options for e in o.effects}
                wanted.setdefault(_family(code), set()).update(_penalty(k) for k in kinds if k in effects.ENFORCED)
    missing = {f"{fam[0]} ({fam[1]})": sorted(want - carried.get(fam, set())) for fam, want in wanted.items()}
    assert {f: m for f, m in missing.items() if m} == {}


BROKEN = {
    "a scenario key misspelt": ("nmae: x\nstory: y\ntable: {code: wcny-1913}\nactions: [{seat: S, call: 1H}]\nexpect: {}\n",
                                "unknown key 'nmae'", (1, 7)),
    "a state check misspelt": ("name: x\nstory: y\ntable: {code: wcny-1913}\nactions: [{seat: S, call: 1H}]\n"
                               "expect: {phse: play}\n", "did you mean 'phase'", (5, 16)),
    "an action naming nothing": ("name: x\nstory: y\ntable: {code: wcny-1913}\nactions:\n  - {seat: S}\nexpect: {}\n",
                                 "an action names one of", (5, 5)),
    "a scenario under another code": ("name: x\nstory: y\ntable: {code: wcny-1912}\nactions: [{seat: S, call: 1H}]\n"
                                      "expect: {}\n", "is played under wcny-1913", (3, 8)),
    "an answer check misspelt": ("name: x\nstory: y\ntable: {code: wcny-1913}\nactions:\n"
                                 "  - {seat: S, call: 1H, expect: {legl: true}}\nexpect: {}\n", "did you mean 'legal'", (5, 40)),
}


@pytest.mark.parametrize("name", BROKEN)
def test_a_broken_scenario_is_refused_at_its_line_and_column(name, tmp_path):
    """The caret stands under the value of the key that is wrong (the convention of every file bridgelaw reads)."""
    from bridgelaw import LawFileError

    text, error, (line, column) = BROKEN[name]
    folder = tmp_path / "rulings" / "wcny-1913" / "table"
    folder.mkdir(parents=True)
    (folder / "broken.yaml").write_text(text)
    with pytest.raises(LawFileError) as info:
        load_scenarios(tmp_path / "rulings")
    assert error in str(info.value) and (info.value.line, info.value.column) == (line, column), str(info.value)


def test_a_scenario_that_does_not_play_as_written_says_where():
    sc = next(s for s in SCENARIOS if "insufficient-bid-penalized-is-made-sufficient" in s.path and "wcny-1913/" in s.path)
    wrong = type(sc)(sc.path, sc.name, sc.story, sc.table, sc.actions, {**sc.expect, "contract": "3S"}, sc.source)
    assert run_scenario(wrong) == ["expect: contract: expected '3S', got '4S'"]
