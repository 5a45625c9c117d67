"""One-edit mutations of the shipped law files: each is refused at path:line:col, caught by a casebook ruling,
or changes nothing at all — never a traceback, a hang, an error without its place, or a silent change.

A fixed sample of every family runs here (``tests/mutants.py`` makes them); ``benchmarks/mutate_all.py``
runs every one of them (about 9,000).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import mutants

ALL = mutants.all_mutations()
SAMPLE = mutants.sample(ALL, per_family=8)
#: Parameter mutations are refused by the parameters schema (schema/parameters.schema.json and
#: bridgelaw.parameters, the params part); until it is in, a retyped parameter reaches the scorer.
PARAMETERS_SCHEMA = (mutants.ROOT / "engine" / "bridgelaw" / "parameters.py").is_file()


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> mutants.Lab:
    return mutants.Lab(Path(tmp_path_factory.mktemp("mutants")))


@pytest.mark.parametrize("mutation", SAMPLE, ids=[m.name[:120] for m in SAMPLE])
def test_a_mutation_is_refused_caught_or_harmless(lab: mutants.Lab, mutation: mutants.Mutation) -> None:
    if mutation.family == "params" and not PARAMETERS_SCHEMA:
        pytest.skip("the parameters schema has not landed: parameter mutations are its to refuse")
    outcome = lab.run(mutation)
    assert outcome.result in mutants.GOOD, f"{outcome.result}: {outcome.detail}"


def test_the_sample_covers_every_family_and_every_code() -> None:
    assert {m.family for m in SAMPLE} == {m.family for m in ALL} >= {
        "params", "condition", "chooser", "overrides", "effects", "catalogue", "files", "yaml", "size", "code"}
    assert len({m.code for m in ALL if m.code}) == len(mutants._codes())


def test_the_attacks_the_issue_names_are_refused(lab: mutants.Lab) -> None:
    """The issue's own examples, each one edit: refused at its place, none loads."""
    named = [next(m for m in ALL if m.code == "wcny-1913" and w in m.what) for w in (
        "overrides itself", "alias bomb", "5,000-digit", "2,000-deep", "renamed .yml", "without its NN- prefix",
        "players: 0", "transfer count -3", "to the side it comes from", "points true", "300 and-ed", "500 nested",
        "divided by zero", "which overrides it")]
    named += [m for m in ALL if m.family == "catalogue" and m.what.startswith("incorrect_pack.discovered: default")]
    named += [m for m in ALL if m.code == "wcny-1913-three-hand" and m.what.endswith("chooser the dummy packet")][:1]
    named += [m for m in ALL if m.code == "wcny-1913" and m.what.endswith(": chooser offender")][:1]
    assert len(named) >= 15
    for m in named:
        outcome = lab.run(m)
        assert outcome.result == "refused", f"{m.name}: {outcome.result}: {outcome.detail}"
