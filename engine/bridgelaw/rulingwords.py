"""A ruling in words as typed records — a question, an option, a chooser's options, the ruling — with their JSON
view (the ``words`` of ``schema/ruling.schema.json``).

:mod:`bridgelaw.wording` works a ruling's words out once, as these records' fields in order, and gives the JSON
view by one function a record (:func:`~bridgelaw.wording.ruling_json` and the rest), which each record's
``to_dict`` calls: :func:`bridgelaw.wording.ruling_words` gives the records, and what only prints the words or
sends them as JSON (``bridgelaw rule``, the desk) reads the fields as they were worked out, so a start that rules
once builds none of these classes. ``bridgelaw.wording`` gives their names too.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass

from .wording import choice_json, option_json, question_json, ruling_json

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from typing import Any

__all__ = ["OptionWords", "ChoiceWords", "QuestionWords", "RulingWords"]


@dataclass(frozen=True)
class QuestionWords:
    """A question put to the referee: the question, how to answer it, an example answer, and the words of each
    choice (``value`` is what the incident takes)."""

    fact: str
    ask: str
    format: str
    example: str
    choices: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return question_json(*astuple(self))


@dataclass(frozen=True)
class OptionWords:
    """One option: its id (what the chooser names), its law, what it is, and each of its effects."""

    id: str
    law: str
    text: str
    effects: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return option_json(*astuple(self))


@dataclass(frozen=True)
class ChoiceWords:
    """The options one chooser picks from: ``chooser`` as in the ruling, ``who`` in words."""

    chooser: str | tuple[str, ...]
    who: str
    heading: str
    options: tuple[OptionWords, ...]

    def to_dict(self) -> dict[str, Any]:
        return choice_json(*astuple(self))


@dataclass(frozen=True)
class RulingWords:
    """A ruling in words: the JSON view is the ``words`` of ``schema/ruling.schema.json``."""

    heading: str
    summary: str
    effects: tuple[str, ...]
    choices: tuple[ChoiceWords, ...]
    questions: tuple[QuestionWords, ...]
    presumptions: str
    notes: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return ruling_json(*astuple(self))

    @classmethod
    def of(cls, fields: tuple[Any, ...]) -> RulingWords:
        """The records of a ruling's words worked out as their fields (:func:`bridgelaw.wording._ruling`)."""
        heading, summary, effects, choices, questions, presumptions, notes = fields
        return cls(heading, summary, effects,
                   tuple(ChoiceWords(c, who, head, tuple(OptionWords(*o) for o in options))
                         for c, who, head, options in choices),
                   tuple(QuestionWords(*q) for q in questions), presumptions, notes)
