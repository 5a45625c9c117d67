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
# validators built once: jsonschema.validate() would check the schema itself again for every case
RULING_V = jsonschema.Draft202012Validator(SCHEMA)
INCIDENT_SCHEMA = json.loads((ROOT / "schema" / "incident.schema.json").read_text())
INCIDENT_V = jsonschema.Draft202012Validator(INCIDENT_SCHEMA)
SCORE_V = jsonschema.Draft202012Validator(SCORE_SCHEMA)


@pytest.mark.parametrize("case", CASES, ids=[c.path.split("/", 1)[1][:-5] for c in CASES])
def test_ruling(case):
    INCIDENT_V.validate(case.incident)
    ruling = rule(case.incident)
    RULING_V.validate(ruling.to_dict())
    assert compare(ruling, case.expect) == []


@pytest.mark.parametrize("case", SCORES, ids=[c.path.split("/", 1)[1][:-5] for c in SCORES])
def test_score(case):
    result = score(case.incident)
    SCORE_V.validate(result.to_dict())
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


def test_every_scoring_case_is_valid_input_by_the_published_schema():
    defs = SCORE_SCHEMA["$defs"]
    result_v = jsonschema.Draft202012Validator({"$defs": defs, "$ref": "#/$defs/result"})
    rubber_v = jsonschema.Draft202012Validator({"$defs": defs, "$ref": "#/$defs/rubber"})
    for case in SCORES:
        (rubber_v if "deals" in case.incident else result_v).validate(case.incident)
