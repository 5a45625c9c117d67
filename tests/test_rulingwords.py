"""A ruling's words as typed records (bridgelaw.rulingwords) hold what the words worked out once say, which is what
``bridgelaw rule`` prints and the desk sends: the records' JSON view is the JSON the start sends without building
them, and the text printed from the records is the text printed without them, for every casebook ruling."""

from __future__ import annotations

from dataclasses import fields

import pytest

from bridgelaw import rule, wording
from bridgelaw.casebook import load_cases
from bridgelaw.rulingwords import ChoiceWords, OptionWords, QuestionWords, RulingWords

from conftest import ROOT

CASES = load_cases(ROOT / "rulings")


def test_the_typed_records_of_a_rulings_words_are_the_words_worked_out_for_every_casebook_ruling():
    seen = {RulingWords: 0, ChoiceWords: 0, OptionWords: 0, QuestionWords: 0}
    for case in CASES:
        r = rule(case.incident)
        typed = wording.ruling_words(r)
        assert typed.to_dict() == wording.words_json(r), case.path
        assert wording.ruling_text(r, typed) == wording.ruling_text(r), case.path
        seen[RulingWords] += 1
        for c in typed.choices:
            seen[ChoiceWords] += 1
            seen[OptionWords] += len(c.options)
            assert type(c) is ChoiceWords and all(type(o) is OptionWords for o in c.options)
        seen[QuestionWords] += len(typed.questions)
        assert all(type(q) is QuestionWords for q in typed.questions)
        assert [q.to_dict() for q in typed.questions] == [wording.question_words(q).to_dict() for q in r.questions]
    assert all(n > 10 for n in seen.values()), seen  # every record met, or nothing is tested


@pytest.mark.parametrize("record", [RulingWords, ChoiceWords, OptionWords, QuestionWords])
def test_the_records_are_given_by_the_wording_module_too(record):
    assert getattr(wording, record.__name__) is record
    assert record.__name__ in wording.__all__ and [f.name for f in fields(record)]


def test_a_name_the_wording_module_has_not_is_refused():
    with pytest.raises(AttributeError, match="no attribute 'NoSuchWords'"):
        wording.NoSuchWords  # noqa: B018
