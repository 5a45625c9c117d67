"""The one renderer of rulings in words: effects, options, questions and presumptions.

Every effect is said with its kind's wording in ``schema/effects.yaml`` (see
:mod:`bridgelaw.vocabulary`); seats, sides, calls and cards become words
("West", "East–West", "four spades", "the king of spades"); a presumption is
said with the ``presumed:`` wording of its fact in ``laws/kinds.yaml``. The
CLI (``bridgelaw rule``, ``auction``, ``replay``, ``ask``) prints
:func:`ruling_text`; the HTTP API sends :func:`ruling_words` with each ruling,
and the web page shows those words and writes none of its own.

    >>> from bridgelaw.values import Effect, EffectKind
    >>> effect_sentence(Effect(EffectKind.HONOURS_ONLY, (("side", "EW"),)))
    'East–West may score only their honours this deal'
"""

from __future__ import annotations

from .errors import LawFileError
from .values import Call, CallKind, Card, Effect, Question, Ruling
from .effectwords import PLACEHOLDER, wording_for

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from typing import Any, Callable, Iterable, Mapping

    from .rulingwords import QuestionWords, RulingWords
    from .vocabulary import Vocabulary

__all__ = [
    "seat_words", "side_words", "chooser_words", "call_words", "card_words", "suit_words", "seats_words",
    "kind_name", "effect_sentence", "question_words", "ruling_words", "words_json", "ruling_text",
    "question_json", "option_json", "choice_json", "ruling_json",
    "OptionWords", "ChoiceWords", "QuestionWords", "RulingWords",
]

#: The typed records of a ruling's words, in a module of their own (bridgelaw.rulingwords), given by this one too.
_RECORDS = ("OptionWords", "ChoiceWords", "QuestionWords", "RulingWords")


def __getattr__(name: str) -> Any:
    if name in _RECORDS:
        from . import rulingwords

        return getattr(rulingwords, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

_SEATS = {"N": "North", "E": "East", "S": "South", "W": "West"}
_SIDES = {"NS": ("North", "South"), "EW": ("East", "West")}
_LEVELS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}
_STRAINS = {"C": ("club", "clubs"), "D": ("diamond", "diamonds"), "H": ("heart", "hearts"),
            "S": ("spade", "spades"), "R": ("royal spade", "royal spades"), "NT": ("no trump", "no trumps")}
_CALLS = {CallKind.PASS: "pass", CallKind.DOUBLE: "double", CallKind.REDOUBLE: "redouble"}
_SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
_RANKS = {"2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight",
          "9": "nine", "T": "ten", "J": "knave", "Q": "queen", "K": "king", "A": "ace"}
_PRESUMED = "Assumed, unless you say otherwise: "


# --------------------------------------------------------------------------
# Values in words


def seat_words(seat: Any) -> str:
    """``"W"`` → ``"West"`` (in three-hand, the player of that seat)."""
    s = str(seat)
    if s not in _SEATS:
        raise ValueError(f"not a seat: {seat!r}")
    return _SEATS[s]


def side_words(side: Any) -> str:
    """``"EW"`` → ``"East–West"``."""
    s = str(side)
    if s not in _SIDES:
        raise ValueError(f"not a side: {side!r}")
    return "–".join(_SIDES[s])


def chooser_words(chooser: Any) -> str:
    """Who chooses: a seat (``"West"``), a side, meaning either of its players (``"either East or West"``), or a
    list of seats, meaning either of them (three-hand's "either other player": ``"either East or South"``)."""
    if isinstance(chooser, (tuple, list)):
        return "either " + " or ".join(seat_words(s) for s in chooser)
    c = str(chooser)
    if c in _SIDES:
        return "either {} or {}".format(*_SIDES[c])
    return seat_words(c)


def call_words(call: Any) -> str:
    """``"4S"`` → ``"four spades"``, ``"1NT"`` → ``"one no trump"``, ``"X"`` → ``"double"``; a straight-bridge
    declaration without a level (``"H"``) → ``"hearts"``."""
    text = str(call)
    if text.upper() in _STRAINS:
        return _STRAINS[text.upper()][1]
    c = Call(text)
    if c.kind is not CallKind.BID:
        return _CALLS[c.kind]
    if c.level is None or c.strain is None:  # pragma: no cover - a bid has both
        return c.text
    one, many = _STRAINS[c.strain.value]
    return f"{_LEVELS[c.level]} {one if c.level == 1 else many}"


def card_words(card: Any) -> str:
    """``"SK"`` → ``"king of spades"`` (a template writes "the {card}")."""
    c = Card(str(card))
    return f"{_RANKS[c.rank]} of {_SUITS[c.suit.value]}"


def suit_words(suit: Any) -> str:
    """``"S"`` → ``"spades"``."""
    s = str(suit)
    if s not in _SUITS:
        raise ValueError(f"not a suit: {suit!r}")
    return _SUITS[s]


def seats_words(seats: Iterable[Any]) -> str:
    """``["N", "E", "S"]`` → ``"North, East and South"``."""
    names = [seat_words(s) for s in seats]
    if not names:
        return "no one"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def kind_name(kind: str) -> str:
    """An irregularity kind's readable name: ``"insufficient_bid"`` → ``"insufficient bid"``."""
    return kind.replace("_", " ")


def choice_words(value: str) -> str:
    """A fact's closed value as words (``"second_and_third"`` → ``"second and third"``)."""
    return str(value).replace("_", " ")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


_BY_TYPE: dict[str, Callable[[Any], str]] = {
    "seat": seat_words, "side": side_words, "call": call_words, "card": card_words, "suit": suit_words,
            "seats": seats_words, "text": str}


def _field_words(field: tuple[str, dict[str, str]], value: Any, fmt: str | None) -> str:
    type_, values = field  # (a field of bridgelaw.effectwords.table: its type, and the words of a choice's values)
    if type_ == "choice":
        said = values.get(value) if type(value) is str else None
        if said is None:
            raise KeyError(value)
        return said
    if type_ == "int":
        return str(abs(value) if fmt == "abs" else value)
    return _BY_TYPE[type_](value)


# --------------------------------------------------------------------------
# Effects


def effect_sentence(effect: Effect | Mapping[str, Any], vocab: Vocabulary | None = None) -> str:
    """One effect as a sentence, from its kind's wording in ``schema/effects.yaml`` (or in ``vocab``): read from
    the vocabulary's table of words (:func:`bridgelaw.effectwords.table`; a ruling kit carries the shipped one)."""
    from .kit import effect_words

    d = effect.to_dict() if isinstance(effect, Effect) else dict(effect)
    name = str(d.pop("kind"))
    if vocab is None:
        words = effect_words().get(name)
    else:
        from .effectwords import table

        words = table(vocab).get(name)
    text = wording_for(words, d) if words is not None else None
    if text is None:  # no such kind, or no wording of it fits: the vocabulary says which, as it does
        from .vocabulary import vocabulary

        (vocab or vocabulary()).kind(name).wording_for(d)
        raise AssertionError(f"the table of words of {name!r} is not its vocabulary's")  # pragma: no cover
    fields = words[1]

    def fill(m: Any) -> str:
        f = fields.get(m.group(1))
        if f is None:  # pragma: no cover - the vocabulary checks every placeholder names a field
            raise LawFileError(f"a wording of {name!r} prints {{{m.group(1)}}}, which names no field",
                               "schema/effects.yaml")
        return _field_words(f, d[m.group(1)], m.group(2))

    return _capital(PLACEHOLDER.sub(fill, text))


# --------------------------------------------------------------------------
# Questions

_ANSWERS = {
    "bool": ("yes or no", "yes"),
    "int": ("a whole number", "1"),
    "seat": ("a seat: N, E, S or W", "N"),
    "side": ("a side: NS or EW", "NS"),
    "call": ("a call: a level and a strain (1S, 2NT, 3R), or P, X, XX", "1S"),
    "bid": ("a bid: a level and a strain (1S, 2NT, 3R)", "1S"),
    "card": ("a card: its suit, then its rank (SA, HT, C2)", "SK"),
    "suit": ("a suit: C, D, H or S", "S"),
    "strain": ("a strain: C, D, H, S, R (royal spades) or NT", "NT"),
}


def question_words(q: Question) -> QuestionWords:
    """A question in words, as a :class:`~bridgelaw.rulingwords.QuestionWords`."""
    from .rulingwords import QuestionWords

    return QuestionWords(*_question(q))


def _question(q: Question) -> tuple[Any, ...]:
    """A question in words as :class:`~bridgelaw.rulingwords.QuestionWords`'s fields, in order."""
    if q.choices:
        choices = tuple((c, choice_words(c)) for c in q.choices)
        return q.fact, q.ask, "one of: " + "; ".join(w for _, w in choices), choices[0][1], choices
    fmt, example = _ANSWERS.get(q.type, ("a few words", "as it happened"))
    return q.fact, q.ask, fmt, example, ()


# --------------------------------------------------------------------------
# Rulings
#
# A ruling's words are worked out once, as the fields of the typed records of bridgelaw.rulingwords in order
# (plain tuples: a start that prints them builds none of those classes), and given their JSON view by the one
# function of each record below (which the records' own ``to_dict`` calls).


def question_json(fact: str, ask: str, format: str, example: str, choices: tuple[tuple[str, str], ...] = ()
                  ) -> dict[str, Any]:
    """A question's words as JSON (:meth:`QuestionWords.to_dict <bridgelaw.rulingwords.QuestionWords.to_dict>`)."""
    d: dict[str, Any] = {"fact": fact, "ask": ask, "format": format, "example": example}
    if choices:
        d["choices"] = [{"value": v, "words": w} for v, w in choices]
    return d


def option_json(id: str, law: str, text: str, effects: tuple[str, ...]) -> dict[str, Any]:  # noqa: A002
    """An option's words as JSON (:meth:`OptionWords.to_dict <bridgelaw.rulingwords.OptionWords.to_dict>`)."""
    return {"id": id, "law": law, "text": text, "effects": list(effects)}


def choice_json(chooser: str | tuple[str, ...], who: str, heading: str, options: tuple[tuple[Any, ...], ...]
                ) -> dict[str, Any]:
    """A chooser's options in words as JSON (each option as :func:`option_json`'s arguments)."""
    return {"chooser": list(chooser) if isinstance(chooser, tuple) else chooser, "who": who, "heading": heading,
            "options": [option_json(*o) for o in options]}


def ruling_json(heading: str, summary: str, effects: tuple[str, ...], choices: tuple[tuple[Any, ...], ...],
                questions: tuple[tuple[Any, ...], ...], presumptions: str, notes: tuple[str, ...]) -> dict[str, Any]:
    """A ruling's words as JSON: the ``words`` of ``schema/ruling.schema.json`` (each choice and question as
    :func:`choice_json`'s and :func:`question_json`'s arguments)."""
    return {"heading": heading, "summary": summary, "effects": list(effects),
            "choices": [choice_json(*c) for c in choices], "questions": [question_json(*q) for q in questions],
            "presumptions": presumptions, "notes": list(notes)}


def _heading(r: Ruling) -> str:
    from .kit import code_for_words

    code = code_for_words(r.code)
    offender = r.facts.get("offender") if r.facts else None
    title = code.title + ("" if str(code.year) in code.title else f" ({code.year})")
    return f"{_capital(kind_name(r.irregularity))}" + (f" by {seat_words(offender)}" if offender else "") \
        + f" — {title} ({code.id})"


def _presumptions(r: Ruling) -> str:
    if not r.presumed:
        return ""
    from .kit import kinds_of

    common, kinds = kinds_of()
    facts = kinds[r.irregularity].facts if r.irregularity in kinds else {}
    said = []
    for name, value in r.presumed:
        spec = facts.get(name) or common.get(name)
        if spec is None or not spec.presumed or spec.default != value:
            raise ValueError(f"{r.irregularity}: {name} = {value!r} was presumed, but laws/kinds.yaml gives it no "
                             "`presumed:` wording for that value")
        said.append(spec.presumed)
    return _PRESUMED + "; ".join(said) + "."


_AWAITS = "What it comes to is worked out once the question above is answered"


def ruling_words(r: Ruling) -> RulingWords:
    """A ruling in words (what the HTTP API sends with it as ``words``), as a
    :class:`~bridgelaw.rulingwords.RulingWords`."""
    from .rulingwords import RulingWords

    return RulingWords.of(_ruling(r))


def words_json(r: Ruling) -> dict[str, Any]:
    """A ruling's words as JSON: ``ruling_words(r).to_dict()``, without the typed records."""
    return ruling_json(*_ruling(r))


def _ruling(r: Ruling) -> tuple[Any, ...]:
    """A ruling in words as :class:`~bridgelaw.rulingwords.RulingWords`'s fields, in order (each choice, option
    and question as its record's fields)."""
    from .kit import kinds_of

    kinds = kinds_of()[1]
    groups: dict[str | tuple[str, ...], list[tuple[Any, ...]]] = {}
    for o in r.options:
        effects = tuple(effect_sentence(e) for e in o.effects)
        if o.awaits:  # stated by the law, priced once the referee answers what it waits on
            effects += (_AWAITS,)
        text = _capital(o.label) if o.label else "; ".join(effects)
        groups.setdefault(o.chooser, []).append((o.id, o.law, text, effects))
    choices = tuple((c, _capital(chooser_words(c)), f"{_capital(chooser_words(c))} chooses one of:", tuple(opts))
                    for c, opts in groups.items())
    kind = kinds.get(r.irregularity)
    return (_heading(r), kind.summary if kind else "", tuple(effect_sentence(e) for e in r.effects), choices,
            tuple(_question(q) for q in r.questions), _presumptions(r), tuple(r.notes))


def _wrap(text: str, indent: str = "    ") -> str:
    out = []
    for para in text.split("\n"):
        import textwrap  # deferred: not needed to start
        out.append(textwrap.fill(para, width=88, initial_indent=indent, subsequent_indent=indent)
                   if para.strip() else "")
    return "\n".join(out)


def ruling_text(r: Ruling, words: RulingWords | None = None) -> str:
    """A ruling as ``bridgelaw rule`` prints it: heading, questions, effects, options, presumptions, notes, laws."""
    if words is None:
        heading, summary, effects, choices, questions, presumptions, notes = _ruling(r)
    else:
        from dataclasses import astuple

        heading, summary, effects, choices, questions, presumptions, notes = astuple(words)
    out = [heading]
    if summary:
        out.append(_wrap(summary, ""))
    if questions:
        out += ["", "The ruling needs answers to:"]
        for _fact, ask, fmt, example, q_choices in questions:
            hint = fmt if q_choices else f"{fmt}, e.g. {example}"
            out.append(f"  ? {ask}  ({hint})")
    if effects:
        out += ["", "The law applies:"]
        out += [f"  - {e}" for e in effects]
    for _chooser, _who, c_heading, options in choices:
        out += ["", c_heading]
        for o_id, o_law, o_text, o_effects in options:
            out.append(f"  [{o_id}] {o_text}  (law {o_law})")
            out += [f"        - {e}" for e in o_effects]
    if presumptions or notes:
        out.append("")
    if presumptions:
        out.append(_wrap(presumptions, "  "))
    out += [_wrap(f"Note: {n}", "  ") for n in notes]
    if r.laws:
        out += ["", "The law:"]
        for law in r.laws:
            out.append(f"  Law {law.number}" + (f" ({law.heading})" if law.heading else ""))
            out.append(_wrap(law.text.replace("[^", "[")))
            out += [_wrap(f"[{n}] {t}", "      ") for n, t in law.footnotes]
    return "\n".join(out)
