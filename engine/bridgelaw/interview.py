"""The referee's interview: the facts of the deal, asked in the order a referee learns them.

One flow drives ``bridgelaw ask`` and the desk's web page. An :class:`Interview` holds the answers so far
and says what to ask next (:meth:`Interview.step`): the code, the kind of irregularity (a numbered menu
grouped by phase, matched forgivingly against words typed), who offended, then the record — the dealer and
the calls — from which the engine derives what it can (the offending call's maker, the previous bid, the
requisite bid, the declarer), and then only the questions the ruling still needs, each with its format and an
example. It never asks for a conclusion the engine can draw: there is no question "what is the lowest
sufficient bid?" when the calls are known.

:meth:`Interview.give` takes the answer to the current step as typed. A bad answer raises
:class:`~bridgelaw.errors.InputError` saying what would be right, and the same step is asked again; an answer
the ruling later finds inconsistent (an offender the auction contradicts) sends the interview back to that
step with the engine's message. The answers are plain data (:meth:`to_dict`, :meth:`from_dict`), so a web page
can keep them across rounds: :meth:`Interview.take` is one round of the desk's ``POST /interview`` (an answer to the
step asked, a change to an earlier answer, or a step taken back), and :meth:`Interview.asked` lists the answers in
the order the interview asked for them, each with its question and its words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from .errors import InputError, did_you_mean
from .values import Call, Card, Seat
from .wording import call_words, card_words, choice_words, kind_name, seat_words, side_words, suit_words

__all__ = ["Interview", "Step", "Choice", "Answer", "parse_card", "parse_seat", "parse_calls", "match_kind"]


@dataclass(frozen=True)
class Choice:
    """One answer a step offers: its number in the menu, the value it gives, its words."""

    number: int
    value: str
    words: str
    group: str = ""
    detail: str = ""  # a kind's summary: matched against words typed, shown where there is room

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"number": self.number, "value": self.value, "words": self.words}
        if self.group:
            d["group"] = self.group
        if self.detail:
            d["detail"] = self.detail
        return d


@dataclass(frozen=True)
class Step:
    """What the interview asks next: ``key`` names what the answer fills (``irregularity``, ``facts.card``)."""

    key: str
    question: str
    format: str
    example: str = ""
    choices: tuple[Choice, ...] = ()
    optional: bool = False
    problem: str = ""  # why this step is asked again (the engine's message), if it is

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"key": self.key, "question": self.question, "format": self.format,
                             "example": self.example, "choices": [c.to_dict() for c in self.choices],
                             "optional": self.optional}
        if self.problem:
            d["problem"] = self.problem
        return d


@dataclass(frozen=True)
class Answer:
    """One answer kept: what it fills (``key``), its value as the incident takes it, its words, and the step
    that asked for it (None for a fact given with the answers that the interview did not ask for)."""

    key: str
    value: Any
    words: str
    question: str
    step: Step | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "question": self.question, "answer": self.value, "words": self.words,
                "step": self.step.to_dict() if self.step else None}


# --------------------------------------------------------------------------
# Answers as typed


_SEAT_WORDS = {"n": "N", "north": "N", "e": "E", "east": "E", "s": "S", "south": "S", "w": "W", "west": "W"}
_SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
_SUIT_WORDS = {"s": "S", "spade": "S", "spades": "S", "♠": "S", "h": "H", "heart": "H", "hearts": "H", "♥": "H",
               "d": "D", "diamond": "D", "diamonds": "D", "♦": "D", "c": "C", "club": "C", "clubs": "C", "♣": "C"}
_RANK_WORDS = {"a": "A", "ace": "A", "k": "K", "king": "K", "q": "Q", "queen": "Q", "j": "J", "jack": "J",
               "knave": "J", "t": "T", "10": "T", "ten": "T", "9": "9", "nine": "9", "8": "8", "eight": "8",
               "7": "7", "seven": "7", "6": "6", "six": "6", "5": "5", "five": "5", "4": "4", "four": "4",
               "3": "3", "three": "3", "2": "2", "two": "2", "deuce": "2"}
_YES = {"y", "yes", "true", "t", "1"}
_NO = {"n", "no", "false", "f", "0"}
CARD_FORMAT = "a card: its rank and suit, e.g. 'king of spades', KS or SK, '10 of hearts' or TH"


def parse_seat(text: str, key: str = "seat", seats: tuple[str, ...] = ("N", "E", "S", "W")) -> str:
    """A seat as typed: ``W``, ``west``, ``West``."""
    s = _SEAT_WORDS.get(text.strip().lower())
    if s is None or s not in seats:
        names = ", ".join(f"{_SEAT_NAMES[x]} ({x})" for x in seats)
        raise InputError(key, f"{text.strip()!r} is not a seat here; answer one of {names}")
    return s


def parse_card(text: str, key: str = "card") -> str:
    """A card as a referee types it: ``king of spades``, ``KS``, ``SK``, ``K♠``, ``10h``, ``ten of hearts``."""
    t = text.strip().lower().replace("the ", " ").replace(" of ", " ")
    words = [w for w in re.split(r"[\s,]+", t) if w]
    if len(words) == 1:  # KS, SK, 10H, H10, K♠
        w = words[0]
        for i in range(1, len(w)):
            a, b = w[:i], w[i:]
            if a in _RANK_WORDS and b in _SUIT_WORDS:
                words = [a, b]
                break
            if a in _SUIT_WORDS and b in _RANK_WORDS:
                words = [b, a]
                break
    if len(words) == 2:
        a, b = words
        if a in _SUIT_WORDS and b in _RANK_WORDS:
            a, b = b, a
        if a in _RANK_WORDS and b in _SUIT_WORDS:
            return Card(_SUIT_WORDS[b] + _RANK_WORDS[a]).text
    raise InputError(key, f"{text.strip()!r} is not a card; answer {CARD_FORMAT}")


def parse_calls(text: str, key: str = "auction") -> list[str]:
    """Calls as typed, separated by spaces or commas: ``1H 1S``, ``1H, pass, 2NT``, ``1N X``."""
    out = []
    for i, w in enumerate(w for w in re.split(r"[\s,]+", text.strip()) if w):
        try:
            out.append(Call(w, f"{key}[{i}]").text)
        except InputError as e:
            raise InputError(key, f"call {i + 1}, {w!r}, is not a call: calls are a level 1-7 and a strain "
                             "C D H S (R, royal spades, where the code has them) NT, or P (pass), X (double), "
                             f"XX (redouble){'' if e.field else ''}") from None
    return out


def parse_bool(text: str, key: str) -> bool:
    t = text.strip().lower()
    if t in _YES:
        return True
    if t in _NO:
        return False
    raise InputError(key, f"{text.strip()!r}: answer yes or no")


def parse_int(text: str, key: str, lo: int = 0, hi: int = 1000) -> int:
    t = text.strip()
    if not re.fullmatch(r"[0-9]{1,9}", t) or not lo <= int(t) <= hi:
        raise InputError(key, f"{t!r}: answer a whole number from {lo} to {hi}")
    return int(t)


_STOP = frozenset("a an the of by to in on or and is was his her their it its".split())
#: Words a referee uses for a thing the catalogue names otherwise.
_SYNONYMS = {"bid": "call", "bids": "call", "declaration": "call", "declare": "call", "declared": "call",
             "led": "lead", "leading": "lead", "leads": "lead", "renounce": "revoke", "renounced": "revoke",
             "revoked": "revoke", "revoking": "revoke", "doubled": "double", "doubling": "double",
             "exposes": "exposed", "shown": "exposed", "dropped": "exposed", "misdealt": "misdeal",
             "played": "play", "plays": "play", "passed": "pass", "passes": "pass", "claims": "claim",
             "redoubled": "redouble", "redoubling": "redouble", "cards": "card", "short": "insufficient"}


def _tokens(text: str) -> list[str]:
    words = [w for w in re.split(r"[^a-z0-9]+", text.lower()) if w and w not in _STOP]
    return [_SYNONYMS.get(w, w) for w in words]


def match_kind(text: str, menu: tuple[Choice, ...]) -> list[Choice]:
    """The menu entries an answer may mean: its number, its words, or the best overlap of words typed
    with each kind's name and summary (``revoke``, ``lead out of turn``, ``bid out of turn``)."""
    t = text.strip()
    if re.fullmatch(r"[0-9]{1,4}", t):  # a number of the menu (ASCII digits: "¹" is a digit, not a number)
        return [c for c in menu if c.number == int(t)]
    low = t.lower().replace("_", " ")
    exact = [c for c in menu if c.value == t or c.words.lower() == low or c.value.replace("_", " ") == low]
    if exact:
        return exact
    typed = set(_tokens(t))
    if not typed:
        return []
    scored = []
    for c in menu:
        name = set(_tokens(c.value.replace("_", " ")))
        summary = set(_tokens(c.group + " " + c.detail))
        hits = len(typed & name) * 2 + len(typed & summary)
        if typed <= name | summary and hits:
            scored.append((-(hits - len(name - typed) * 0.5), c.number, c))
    scored.sort()
    if not scored:
        return []
    best = scored[0][0]
    return [c for s, _, c in scored if s == best] if len(scored) > 1 and scored[1][0] == best else [scored[0][2]]


# --------------------------------------------------------------------------
# The flow

#: Kinds whose offending call is in the auction record (its maker is derived).
_CALL_IN_RECORD = frozenset({"insufficient_bid", "impossible_bid", "call_while_barred", "double_of_partner",
                             "redouble_of_partner_double", "extra_redouble"})
#: An auction record ending with each kind's offending call (a step's example is an answer it takes: the
#: interview's tests rule every kind of every code on its examples).
_RECORD_EXAMPLES = {"insufficient_bid": "1H 1S", "impossible_bid": "7NT 7S", "call_while_barred": "1H 2C P 2H",
                    "double_of_partner": "1H P X", "redouble_of_partner_double": "1H X P XX",
                    "extra_redouble": "1H X P XX P XX"}  # (ends before the close: three-hand closes at two passes)
#: Kinds whose record is the calls made in turn before the call out of turn.
_CALLS_BEFORE = frozenset({"call_out_of_turn", "pass_out_of_turn", "double_out_of_turn"})
_PHASES = ("deal", "auction", "play", "scoring")
_TOP_SEATS = ("offender", "dealer", "declarer")
_ASK = {"code": "Under which code?", "irregularity": "What happened?", "offender": "Who committed the irregularity?",
        "dealer": "Who dealt?"}
#: The answers an interview keeps, in the order it keeps them (Interview.to_dict).
_KEPT = ("code", "irregularity", "offender", "dealer", "auction", "declarer", "facts")


@dataclass
class Interview:
    """The answers so far; :meth:`step` is what to ask next, or None when the ruling is complete."""

    code: str | None = None
    irregularity: str | None = None
    offender: str | None = None
    dealer: str | None = None
    auction: list[str] | None = None
    declarer: str | None = None
    facts: dict[str, Any] = field(default_factory=dict)
    _problem: dict[str, str] = field(default_factory=dict, repr=False)

    # ---------------------------------------------------------------- plain data

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {}
        for name in ("code", "irregularity", "offender", "dealer", "auction", "declarer"):
            v = getattr(self, name)
            if v is not None:
                d[name] = v
        if self.facts:
            d["facts"] = dict(self.facts)
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Interview":
        """Answers kept by a client (the web page); every one is checked as if typed again, in the order the
        interview asks for them."""
        return cls._replay(data)[0]

    @classmethod
    def _replay(cls, data: Mapping[str, Any]) -> tuple["Interview", list[Answer]]:
        """The answers given again from the start: each as the interview asks for it (then any it did not ask
        for, in the order kept); the interview, and the answers in that order."""
        if not isinstance(data, Mapping):
            raise InputError("answers", "expected a mapping of the answers so far")
        for k in data:
            if k not in _KEPT:
                raise InputError(f"answers.{k}", f"not an answer the interview keeps; it keeps {', '.join(_KEPT)}")
        facts = data.get("facts") or {}
        if not isinstance(facts, Mapping):
            raise InputError("answers.facts", "expected a mapping of fact names to answers")
        pending: dict[str, Any] = {k: data[k] for k in _KEPT[:-1] if data.get(k) is not None}
        pending.update((f"facts.{k}", v) for k, v in facts.items())
        iv, answers = cls(), []
        while pending:
            step = iv.step()
            key = step.key if step is not None and step.key in pending else next(iter(pending))
            value = pending.pop(key)
            iv._restore(key, value)
            asked = step if step is not None and step.key == key else None
            kept = iv._value(key)
            answers.append(Answer(key, kept, iv._words(key, kept, asked),
                                  asked.question if asked else iv._question(key), asked))
        iv._check()  # facts are checked by the referee's own parser
        return iv, answers

    def _restore(self, key: str, value: Any) -> None:
        """An answer kept as the incident takes it (``W``, ``["1H", "P"]``, ``True``), given again."""
        if key.startswith("facts."):
            if self.irregularity is None:
                raise InputError("answers.irregularity", f"the fact {key[6:]!r} needs the irregularity it is a fact of")
            self.facts[key[6:]] = value
            self._check()
            return
        if key == "auction":
            if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
                raise InputError("answers.auction", "expected a list of calls, e.g. [\"1H\", \"P\"]")
            for i, x in enumerate(value):
                if len(parse_calls(x, f"answers.auction[{i}]")) != 1:
                    raise InputError(f"answers.auction[{i}]", f"{x!r}: expected one call")
            self.give(" ".join(value), "auction")
            return
        if not isinstance(value, str):
            raise InputError(f"answers.{key}", f"expected text, got {value!r}")
        if key != "code" and self.code is None:
            raise InputError("answers.code", f"the {key} needs the code it is ruled under")
        if key not in ("code", "irregularity") and self.irregularity is None:
            raise InputError("answers.irregularity", f"the {key} needs the irregularity")
        self.give(value, key)

    def _value(self, key: str) -> Any:
        return self.facts.get(key[6:]) if key.startswith("facts.") else getattr(self, key)

    def _spec(self, key: str) -> Any:
        """The catalogue's fact behind ``facts.NAME`` (or a seat the incident gives at its top), if any."""
        from .loader import load_kinds

        common, kinds = load_kinds()
        name = key[6:] if key.startswith("facts.") else key
        kind = kinds.get(self.irregularity) if self.irregularity else None
        return (kind.facts.get(name) if kind else None) or common.get(name)

    def _question(self, key: str) -> str:
        """The question for an answer given without being asked: the catalogue's, where it has one."""
        spec = self._spec(key)
        return spec.ask if spec is not None else _ASK.get(key, "The calls" if key == "auction" else key)

    def _words(self, key: str, value: Any, step: Step | None) -> str:
        """An answer in words: the words of the choice it is, or its value said (``king of spades``)."""
        if value is None:
            return ""
        text = ("yes" if value else "no") if isinstance(value, bool) else str(value)
        for c in step.choices if step else ():
            if c.value == text:
                return c.words
        if key == "auction":
            return " ".join(value) if value else "no calls"
        if key in _TOP_SEATS:
            return seat_words(value)
        spec = self._spec(key)
        say = {"card": card_words, "call": call_words, "bid": call_words, "seat": seat_words, "side": side_words,
               "suit": suit_words}.get(spec.type.name if spec else "")
        try:
            return say(value) if say else (choice_words(text) if spec and spec.type.choices else text)
        except (ValueError, InputError):  # a value the referee refused would not be kept; said as it is
            return text

    # ---------------------------------------------------------------- one round of the desk

    def asked(self) -> tuple[Answer, ...]:
        """The answers so far, in the order the interview asks for them, each with its step and its words."""
        return tuple(self._replay(self.to_dict())[1])

    def take(self, answer: str | None = None, key: str | None = None) -> Step | None:
        """One round of the desk's interview: ``answer`` to the step asked (or to ``key``, an earlier answer
        changed: the interview resumes from there); ``key`` alone takes that answer back, with every answer
        after it. Returns the step to ask now — asked again with its ``problem`` when the answer is bad, which
        changes nothing — or None when the ruling is complete. A round that cannot be (an answer when nothing
        is asked, a key never asked) raises :class:`~bridgelaw.errors.InputError`."""
        step = self.step()
        history = self.asked()
        if key is not None and (step is None or key != step.key):
            at = next((i for i, a in enumerate(history) if a.key == key and a.step is not None), None)
            if at is None:
                known = ", ".join(a.key for a in history if a.step is not None) or "none"
                raise InputError("key", f"{key!r} is not a question asked so far (asked: {known}"
                                 + (f"; asked now: {step.key})" if step else ")"))
            if answer is None:
                self._rewind(history, at)
                return self.step()
            try:
                self._change(history, at, answer)
            except InputError as e:
                asked = history[at].step
                if asked is None:  # an answer given unasked: its refusal stands as it is
                    raise
                return replace(asked, problem=e.message)
            return self.step()
        if answer is None:  # nothing given (or the step asked now "taken back"): the step asked
            return step
        if step is None:
            raise InputError("answer", "the interview is complete: nothing more is asked (give a key to change an "
                             "earlier answer)")
        try:
            self.give(answer)
        except InputError as e:
            again = self.step()
            if again is not None and not again.problem:
                again = replace(again, problem=e.message)
            return again
        return self.step()

    def _rewind(self, history: tuple[Answer, ...], at: int) -> None:
        """Back to the step of ``history[at]``: the answers before it are kept, it and those after are taken back."""
        iv = Interview()
        for a in history[:at]:
            iv._restore(a.key, a.value)
        self._become(iv)

    def _change(self, history: tuple[Answer, ...], at: int, text: str) -> None:
        """``history[at]`` answered anew: the answers before it kept, then each later one given again while the
        interview asks the very same question again (a question now asked otherwise, or not at all, is left to
        be asked). A bad answer raises, and nothing changes."""
        iv = Interview()
        for a in history[:at]:
            iv._restore(a.key, a.value)
        iv.give(text, history[at].key)  # asked again, as the replay asks it
        later = [a for a in history[at + 1:] if a.step is not None]
        while later:
            step = iv.step()
            same = next((a for a in later if step is not None and a.key == step.key
                         and a.step is not None and a.step.question == step.question), None)
            if same is None:
                break
            later.remove(same)
            try:
                iv._restore(same.key, same.value)
            except InputError:
                break  # it no longer fits: it is asked again, with the engine's reason
        if (iv.code, iv.irregularity) == (self.code, self.irregularity):
            for a in history[at + 1:]:  # answers given but never asked stand while the code and the kind do
                if a.step is None and iv._value(a.key) is None:
                    try:
                        iv._restore(a.key, a.value)
                    except InputError as e:  # the change contradicts it: said, not dropped without a word
                        raise InputError(e.field, f"{e.field}: {e.message} — {a.key} was given as {a.value!r} "
                                         f"without being asked, and the change to {history[at].key} contradicts "
                                         "it: send the answers without it, or change it too") from None
        self._become(iv)

    def _become(self, other: "Interview") -> None:
        for name in ("code", "irregularity", "offender", "dealer", "auction", "declarer"):
            setattr(self, name, getattr(other, name))
        self.facts = dict(other.facts)
        self._problem = dict(other._problem)

    def incident(self) -> dict[str, Any]:
        """The incident the answers make, as ``bridgelaw rule`` takes it."""
        if self.code is None or self.irregularity is None:
            raise InputError("irregularity", "the interview has not yet named the code and the kind")
        inc: dict[str, Any] = {"code": self.code, "irregularity": self.irregularity}
        for name in _TOP_SEATS:
            v = getattr(self, name)
            if v is not None:
                inc[name] = v
        if self.auction or self.auction == [] and self.irregularity in _CALLS_BEFORE:
            inc["auction"] = list(self.auction)  # no calls for a play kind: no record (the declarer is asked for)
        if self.facts:
            inc["facts"] = dict(self.facts)
        return inc

    # ---------------------------------------------------------------- what to ask

    def step(self) -> Step | None:
        """What to ask next; None when the ruling needs nothing more."""
        if self.code is None:
            return self._code_step()
        if self.irregularity is None:
            return self._kind_step()
        code, kind = self._code(), self.irregularity
        needs = self._needs()
        if self.offender is None and kind not in _CALL_IN_RECORD and "offender" in needs:
            return self._seat_step("offender", _ASK["offender"])
        phase = self._phase()
        if self.dealer is None and (phase in ("auction", "play") and (
                kind in _CALL_IN_RECORD | _CALLS_BEFORE or self._wants_declarer(needs))
                or self.auction or self.auction == [] and kind in _CALLS_BEFORE):  # calls are read from the dealer
            return self._seat_step("dealer", _ASK["dealer"])
        if self.auction is None and kind in _CALL_IN_RECORD:
            return Step("auction", "What were the calls, from the dealer's, up to and including the irregular one?",
                        "calls separated by spaces: a level and a strain (1H, 2NT), P for pass, X double, XX redouble",
                        _RECORD_EXAMPLES[kind], problem=self._problem.get("auction", ""))
        if self.auction is None and kind in _CALLS_BEFORE:
            return Step("auction", "What calls were made, in turn, before it? (from the dealer's; leave empty if "
                        "none)", "calls separated by spaces (1H P 2C), or nothing", "1H P", optional=True,
                        problem=self._problem.get("auction", ""))
        if phase == "play" and self.auction is None and self.declarer is None and self._wants_declarer(needs) \
                and code.game != "straight-bridge":  # straight bridge: the dealer plays the combined hands
            return Step("auction", "What was the auction, from the dealer's call to the final pass? (or leave "
                        "empty and name the declarer next)", "calls separated by spaces",
                        "1H P 2H" + " P" * (code.players - 1),  # closed by a pass of each other player
                        optional=True, problem=self._problem.get("auction", ""))
        r = self._rule()
        if r is None or not r.questions:
            return None
        q = r.questions[0]
        return self._question_step(q, code)

    def _wants_declarer(self, needs: frozenset[str]) -> bool:
        return bool(needs & {"declarer", "dummy", "leader"})

    def _code(self) -> Any:
        from .loader import load_code

        if self.code is None:
            raise InputError("code", "the interview has not yet named the code")
        return load_code(self.code)

    def _phase(self) -> str:
        from .loader import load_kinds

        return load_kinds()[1][self.irregularity].phase if self.irregularity else ""

    def _needs(self) -> frozenset[str]:
        provs = self._code().by_kind.get(self.irregularity, ())
        return frozenset(n for p in provs for n in p.needs)

    def _seats(self) -> tuple[str, ...]:
        code = self._code()
        if code.players == 3 and self.dealer is not None:
            packet = Seat(self.dealer).partner.value
            return tuple(s for s in "NESW" if s != packet)
        return ("N", "E", "S", "W")

    def _seat_step(self, key: str, question: str) -> Step:
        seats = self._seats()
        choices = tuple(Choice(i + 1, s, _SEAT_NAMES[s]) for i, s in enumerate(seats))
        return Step(key, question, "a seat: " + ", ".join(f"{_SEAT_NAMES[s]} ({s})" for s in seats), "West",
                    choices, problem=self._problem.get(key, ""))

    def _code_step(self) -> Step:
        from .loader import code_ids, load_code

        choices = tuple(Choice(i + 1, cid, f"{load_code(cid).title} ({load_code(cid).year})")
                        for i, cid in enumerate(code_ids()))
        return Step("code", _ASK["code"], "its number, its id (wcny-1913) or its year", "wcny-1913", choices,
                    problem=self._problem.get("code", ""))

    def kind_menu(self) -> tuple[Choice, ...]:
        """The kinds this code answers, numbered, grouped by phase (deal, auction, play, scoring)."""
        from .loader import load_kinds

        _, kinds = load_kinds()
        code = self._code()
        answered = code.by_kind
        ordered = sorted((k for k in kinds.values() if k.id in answered and code.seats.allows(k)),
                         key=lambda k: (_PHASES.index(k.phase) if k.phase in _PHASES else 9, k.id))
        return tuple(Choice(i + 1, k.id, kind_name(k.id), k.phase, k.summary) for i, k in enumerate(ordered))

    def _kind_step(self) -> Step:
        return Step("irregularity", _ASK["irregularity"], "its number, or a few words", "revoke; lead out of turn; "
                    "bid out of turn", self.kind_menu(), problem=self._problem.get("irregularity", ""))

    def _question_step(self, q: Any, code: Any) -> Step:
        key = q.fact if q.fact in _TOP_SEATS else f"facts.{q.fact}"
        problem = self._problem.get(key, "")
        if q.type == "bool":
            return Step(key, q.ask, "yes or no", "no", (Choice(1, "yes", "yes"), Choice(2, "no", "no")),
                        problem=problem)
        if q.type == "seat":
            if q.fact == "maker" and self.dealer is not None:  # the seat model says who can have made it
                seats = tuple(s.value for s in code.seats.makers(Seat(self.dealer)))
                return Step(key, q.ask, "a seat: " + " or ".join(f"{_SEAT_NAMES[s]} ({s})" for s in seats),
                            _SEAT_NAMES[seats[0]], tuple(Choice(i + 1, s, _SEAT_NAMES[s]) for i, s in
                                                         enumerate(seats)), problem=problem)
            return Step(key, q.ask, "a seat: North, East, South or West (N, E, S, W)", "North",
                        tuple(Choice(i + 1, s, _SEAT_NAMES[s]) for i, s in enumerate(self._seats())), problem=problem)
        if q.type == "side":
            return Step(key, q.ask, "a side: North-South (NS) or East-West (EW)", "NS",
                        (Choice(1, "NS", "North-South"), Choice(2, "EW", "East-West")), problem=problem)
        if q.type == "card":
            return Step(key, q.ask, CARD_FORMAT, "king of spades", problem=problem)
        if q.type == "call":
            return Step(key, q.ask, "a call: a level and a strain (1H, 2NT), P, X or XX", "2S", problem=problem)
        if q.type == "suit":
            return Step(key, q.ask, "a suit: spades, hearts, diamonds or clubs", "hearts",
                        tuple(Choice(i + 1, s, w) for i, (s, w) in enumerate(
                            (("S", "spades"), ("H", "hearts"), ("D", "diamonds"), ("C", "clubs")))), problem=problem)
        if q.type == "int":
            bounds = getattr(self._spec(key), "bounds", None)
            return Step(key, q.ask, "a whole number" + (f" from {bounds[0]} to {bounds[1]}" if bounds else ""),
                        str(bounds[0] if bounds else 1), problem=problem)
        if q.choices:
            return Step(key, q.ask, "its number, or its words", choice_words(q.choices[0]),
                        tuple(Choice(i + 1, c, choice_words(c)) for i, c in enumerate(q.choices)), problem=problem)
        return Step(key, q.ask, "text", "", problem=problem)

    # ---------------------------------------------------------------- answers

    def give(self, text: str, key: str | None = None) -> None:
        """The answer to the current step (or to ``key``), as typed. A bad answer raises InputError and
        changes nothing."""
        step = self.step() if key is None else None
        if key is None:
            if step is None:
                raise InputError("answer", "the interview is complete: nothing more is asked")
            key = step.key
        text = "" if text is None else str(text)
        if key == "code":
            self.code = self._parse_code(text)
        elif key == "irregularity":
            self.irregularity = self._parse_kind(text)
        elif key in _TOP_SEATS:
            setattr(self, key, parse_seat(text, key, self._seats() if key == "offender" else ("N", "E", "S", "W")))
        elif key == "auction":
            calls = parse_calls(text)  # empty for a play kind: no record; the declarer is asked instead
            if not calls and self.irregularity in _CALL_IN_RECORD:
                raise InputError("auction", "the calls are needed, from the dealer's up to and including the "
                                 f"irregular one (e.g. {_RECORD_EXAMPLES[self.irregularity]})")
            self.auction = calls
        elif key.startswith("facts."):
            self.facts[key[6:]] = self._parse_fact(key[6:], text, step)
        else:
            raise InputError("answer", f"the interview asks nothing called {key!r}")
        self._problem.pop(key, None)
        self._check()

    def _parse_code(self, text: str) -> str:
        from .loader import code_ids, load_code

        t = text.strip().lower()
        ids = code_ids()
        if re.fullmatch(r"[0-9]{1,4}", t) and 1 <= int(t) <= len(ids):
            return ids[int(t) - 1]
        if t in ids:
            return t
        by_year = [c for c in ids if str(load_code(c).year) == t]
        if len(by_year) == 1:
            return by_year[0]
        hits = [c for c in ids if t and t in c]
        if len(hits) == 1:
            return hits[0]
        raise InputError("code", f"{text.strip()!r} names no one code{did_you_mean(t, ids)}; answer a number from 1 "
                         f"to {len(ids)}, or one of {', '.join(ids)}"
                         + (f" (that year has {', '.join(by_year)})" if by_year else ""))

    def _parse_kind(self, text: str) -> str:
        from .loader import load_kinds

        menu = self.kind_menu()
        hits = match_kind(text, menu)
        if len(hits) == 1:
            return hits[0].value
        _, kinds = load_kinds()
        t = text.strip().replace(" ", "_").lower()
        if t in kinds:  # a kind the code does not answer: ruled, and the ruling says the code is silent
            return t
        if hits:
            raise InputError("irregularity", f"{text.strip()!r} could be " + "; ".join(
                f"{c.number} {c.words}" for c in hits[:8]) + ": answer with its number")
        raise InputError("irregularity", f"{text.strip()!r} matches no irregularity this code names; answer a "
                         "number from the list, or other words")

    def _parse_fact(self, name: str, text: str, step: Step | None) -> Any:
        from .loader import load_kinds

        common, kinds = load_kinds()
        spec = kinds[self.irregularity].facts.get(name) or common.get(name) if self.irregularity else None
        if spec is None:
            raise InputError(f"facts.{name}", "not a fact of this irregularity")
        t = spec.type
        key = f"facts.{name}"
        if t.name == "bool":
            return parse_bool(text, key)
        if t.name == "int":
            return parse_int(text, key, *(spec.bounds or (0, 1000)))
        if t.name == "seat":
            return parse_seat(text, key)
        if t.name == "side":
            v = text.strip().upper().replace("-", "").replace("–", "")
            v = {"NORTHSOUTH": "NS", "EASTWEST": "EW"}.get(v, v)
            if v not in ("NS", "EW"):
                raise InputError(key, f"{text.strip()!r}: answer North-South (NS) or East-West (EW)")
            return v
        if t.name == "card":
            return parse_card(text, key)
        if t.name in ("call", "bid"):  # a bid is a call that is a bid: the catalogue reads it (facts.coerce)
            calls = parse_calls(text, key)
            if len(calls) != 1:
                raise InputError(key, f"{text.strip()!r}: answer one call, e.g. 2S")
            return calls[0]
        if t.name == "suit":
            s = _SUIT_WORDS.get(text.strip().lower())
            if s is None:
                raise InputError(key, f"{text.strip()!r}: answer spades, hearts, diamonds or clubs")
            return s
        if t.choices:
            choices = tuple(Choice(i + 1, c, choice_words(c)) for i, c in enumerate(t.choices))
            hits = match_kind(text, choices)
            if len(hits) == 1:
                return hits[0].value
            raise InputError(key, f"{text.strip()!r}: answer one of " + "; ".join(
                f"{c.number} {c.words}" for c in choices))
        return text.strip()

    def _check(self) -> None:
        """Rule on what is known so far; an answer the ruling finds wrong is taken back and asked again."""
        if self.code is None or self.irregularity is None:
            return
        self._rule()

    def _rule(self) -> Any:
        from .referee import rule

        if self.irregularity is None:
            return None
        inc = self.incident()
        if "auction" in inc and self.dealer is None:
            return None
        try:
            return rule(inc)
        except InputError as e:
            back = self._answer_for(e.field)
            if back is None:
                raise
            self._take_back(back)
            self._problem[back] = e.message
            raise InputError(e.field, e.message) from None

    def _answer_for(self, fieldname: str) -> str | None:
        if fieldname in _TOP_SEATS or fieldname == "irregularity":
            return fieldname
        if fieldname.startswith("auction") or fieldname in ("callers", "offence_at"):
            return "auction"
        if fieldname.startswith("facts."):
            return fieldname
        return None

    def _take_back(self, key: str) -> None:
        if key.startswith("facts."):
            self.facts.pop(key[6:], None)
        elif key == "irregularity":  # the kind was wrong: what was asked under it goes with it (the calls asked
            self.irregularity = None  # for one kind mean other calls for another)
            self.offender = self.dealer = self.auction = self.declarer = None
            self.facts = {}
        else:
            setattr(self, key, None)

    def ruling(self) -> Any:
        """The ruling on the answers so far (complete when :meth:`step` is None)."""
        return self._rule()


