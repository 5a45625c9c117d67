"""The casebook is the regression suite: one test item per ruling."""

from __future__ import annotations

import json

import jsonschema
import pytest

from bridgelaw import load_code, rule, score
from bridgelaw.casebook import compare, compare_score, load_cases

from conftest import ROOT

CASES = load_cases(ROOT / "rulings")
SCORES = load_cases(ROOT / "rulings", scores=True)
SCHEMA = json.loads((ROOT / "schema" / "ruling.schema.json").read_text())
SCORE_SCHEMA = json.loads((ROOT / "schema" / "score.schema.json").read_text())
INCIDENT_SCHEMA = json.loads((ROOT / "schema" / "incident.schema.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=[c.path.split("/", 1)[1][:-5] for c in CASES])
def test_ruling(case):
    jsonschema.validate(case.incident, INCIDENT_SCHEMA)
    ruling = rule(case.incident)
    jsonschema.validate(ruling.to_dict(), SCHEMA)
    assert compare(ruling, case.expect) == []


@pytest.mark.parametrize("case", SCORES, ids=[c.path.split("/", 1)[1][:-5] for c in SCORES])
def test_score(case):
    result = score(case.incident)
    jsonschema.validate(result.to_dict(), SCORE_SCHEMA)
    assert compare_score(result, case.expect) == []


def test_every_wcny_1913_provision_has_a_ruling():
    code = load_code("wcny-1913")
    covered = set()
    for case in CASES:
        if case.incident.get("code") != "wcny-1913":
            continue
        for t in rule(case.incident).trace:
            if t.applied:
                covered.add(t.provision)
    missing = [p.full_id for p in code.provisions if p.full_id not in covered]
    assert missing == []
