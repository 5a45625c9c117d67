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

from dataclasses import dataclass

from .errors import LawFileError
from .values import Call, CallKind, Card, Effect, Question, Ruling
from .effectwords import PLACEHOLDER, wording_for

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from typing import Any, Callable, Iterable, Mapping

    from .vocabulary import Vocabulary

__all__ = [
    "seat_words", "side_words", "chooser_words", "call_words", "card_words", "suit_words", "seats_words",
    "kind_name", "effect_sentence", "question_words", "ruling_words", "ruling_text",
    "OptionWords", "ChoiceWords", "QuestionWords", "RulingWords",
]

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
        d: dict[str, Any] = {"fact": self.fact, "ask": self.ask, "format": self.format, "example": self.example}
        if self.choices:
            d["choices"] = [{"value": v, "words": w} for v, w in self.choices]
        return d


def question_words(q: Question) -> QuestionWords:
    if q.choices:
        choices = tuple((c, choice_words(c)) for c in q.choices)
        return QuestionWords(q.fact, q.ask, "one of: " + "; ".join(w for _, w in choices), choices[0][1], choices)
    fmt, example = _ANSWERS.get(q.type, ("a few words", "as it happened"))
    return QuestionWords(q.fact, q.ask, fmt, example)


# --------------------------------------------------------------------------
# Rulings


@dataclass(frozen=True)
class OptionWords:
    """One option: its id (what the chooser names), its law, what it is, and each of its effects."""

    id: str
    law: str
    text: str
    effects: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "law": self.law, "text": self.text, "effects": list(self.effects)}


@dataclass(frozen=True)
class ChoiceWords:
    """The options one chooser picks from: ``chooser`` as in the ruling, ``who`` in words."""

    chooser: str | tuple[str, ...]
    who: str
    heading: str
    options: tuple[OptionWords, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"chooser": list(self.chooser) if isinstance(self.chooser, tuple) else self.chooser,
                "who": self.who, "heading": self.heading,
                "options": [o.to_dict() for o in self.options]}


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
        return {"heading": self.heading, "summary": self.summary, "effects": list(self.effects),
                "choices": [c.to_dict() for c in self.choices], "questions": [q.to_dict() for q in self.questions],
                "presumptions": self.presumptions, "notes": list(self.notes)}


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
    """A ruling in words (what the HTTP API sends with it as ``words``)."""
    from .kit import kinds_of

    kinds = kinds_of()[1]
    groups: dict[str | tuple[str, ...], list[OptionWords]] = {}
    for o in r.options:
        effects = tuple(effect_sentence(e) for e in o.effects)
        if o.awaits:  # stated by the law, priced once the referee answers what it waits on
            effects += (_AWAITS,)
        text = _capital(o.label) if o.label else "; ".join(effects)
        groups.setdefault(o.chooser, []).append(OptionWords(o.id, o.law, text, effects))
    choices = tuple(ChoiceWords(c, _capital(chooser_words(c)), f"{_capital(chooser_words(c))} chooses one of:",
                                tuple(opts)) for c, opts in groups.items())
    kind = kinds.get(r.irregularity)
    return RulingWords(
        heading=_heading(r), summary=kind.summary if kind else "",
        effects=tuple(effect_sentence(e) for e in r.effects), choices=choices,
        questions=tuple(question_words(q) for q in r.questions), presumptions=_presumptions(r),
        notes=tuple(r.notes))


def _wrap(text: str, indent: str = "    ") -> str:
    out = []
    for para in text.split("\n"):
        import textwrap  # deferred: not needed to start
        out.append(textwrap.fill(para, width=88, initial_indent=indent, subsequent_indent=indent)
                   if para.strip() else "")
    return "\n".join(out)


def ruling_text(r: Ruling, words: RulingWords | None = None) -> str:
    """A ruling as ``bridgelaw rule`` prints it: heading, questions, effects, options, presumptions, notes, laws."""
    w = words or ruling_words(r)
    out = [w.heading]
    if w.summary:
        out.append(_wrap(w.summary, ""))
    if w.questions:
        out += ["", "The ruling needs answers to:"]
        for q in w.questions:
            hint = q.format if q.choices else f"{q.format}, e.g. {q.example}"
            out.append(f"  ? {q.ask}  ({hint})")
    if w.effects:
        out += ["", "The law applies:"]
        out += [f"  - {e}" for e in w.effects]
    for c in w.choices:
        out += ["", c.heading]
        for o in c.options:
            out.append(f"  [{o.id}] {o.text}  (law {o.law})")
            out += [f"        - {e}" for e in o.effects]
    if w.presumptions or w.notes:
        out.append("")
    if w.presumptions:
        out.append(_wrap(w.presumptions, "  "))
    out += [_wrap(f"Note: {n}", "  ") for n in w.notes]
    if r.laws:
        out += ["", "The law:"]
        for law in r.laws:
            out.append(f"  Law {law.number}" + (f" ({law.heading})" if law.heading else ""))
            out.append(_wrap(law.text.replace("[^", "[")))
            out += [_wrap(f"[{n}] {t}", "      ") for n, t in law.footnotes]
    return "\n".join(out)
