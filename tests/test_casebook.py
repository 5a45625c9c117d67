"""The casebook is the regression suite: one test item per ruling."""

from __future__ import annotations

import json

import jsonschema
import pytest

from bridgelaw import load_code, rule
from bridgelaw.casebook import compare, load_cases

from conftest import ROOT

CASES = load_cases(ROOT / "rulings")
SCHEMA = json.loads((ROOT / "schema" / "ruling.schema.json").read_text())
INCIDENT_SCHEMA = json.loads((ROOT / "schema" / "incident.schema.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=[c.path.split("/", 1)[1][:-5] for c in CASES])
def test_ruling(case):
    jsonschema.validate(case.incident, INCIDENT_SCHEMA)
    ruling = rule(case.incident)
    jsonschema.validate(ruling.to_dict(), SCHEMA)
    assert compare(ruling, case.expect) == []


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
