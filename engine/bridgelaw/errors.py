"""The errors bridgelaw raises. One base, a small tree::

    BridgelawError                 anything bridgelaw refuses, with one clear message
    ├── LawFileError               a law, parameter, kind or casebook file is wrong
    │   ├── ConditionError         a condition or expression in a law file is wrong
    │   └── RulingError            a provision turns out wrong for one incident, at ruling time
    └── InputError                 an incident, result or call from a user is wrong
        ├── UnknownCodeError       no code with that id
        ├── RequestConflictError   a request key already bound to another request (HTTP 409)
        └── TableError             an action the table refuses (bridgelaw.table)
            ├── MalformedActionError   the action does not parse, or names what is not there
            ├── IllegalActionError     well formed and in turn, but not open to him under the code
            ├── OutOfTurnError         not his turn (or not the time) where no law makes it an irregularity
            ├── RulingPendingError     a ruling waits: apply it (or answer it) first
            └── TableStateError        a table's state (JSON) that is not one the table can reach

Every message is one line (a law-file error adds a source line and a caret
line beneath it) that names the field or ``path:line:col`` and says what would
be right. The CLI prints the message and exits with status 2.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from typing import Iterable

__all__ = [
    "BridgelawError",
    "LawFileError",
    "ConditionError",
    "RulingError",
    "InputError",
    "UnknownCodeError",
    "RequestConflictError",
    "TableError",
    "MalformedActionError",
    "IllegalActionError",
    "UnmodelledActionError",
    "OutOfTurnError",
    "RulingPendingError",
    "TableStateError",
    "did_you_mean",
]


class BridgelawError(Exception):
    """Base of every error bridgelaw raises on purpose."""


class LawFileError(BridgelawError):
    """A law file (or parameters, kinds, casebook file) is malformed.

    ``path``, ``line`` and ``column`` are 1-based where known; ``source_line``
    is the text of that line, used to draw the caret.
    """

    def __init__(
        self,
        message: str,
        path: str | None = None,
        line: int | None = None,
        column: int | None = None,
        source_line: str | None = None,
    ) -> None:
        self.message = message
        self.path = path
        self.line = line
        self.column = column
        self.source_line = source_line
        super().__init__(self.render())

    def location(self) -> str:
        parts = [self.path or "<unknown>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def render(self) -> str:
        text = f"{self.location()}: {self.message}"
        if self.source_line is not None and self.column is not None:
            text += "\n    " + self.source_line.rstrip("\n")
            text += "\n    " + " " * (self.column - 1) + "^"
        return text


class ConditionError(LawFileError):
    """A condition (or effect expression) does not parse or does not check."""


class RulingError(LawFileError):
    """A provision turns out wrong for one incident, where only the incident could show it: its chooser is
    the offender or his partner, or no player at all; a condition divides by zero; an effect would move
    tricks from a side to itself or give a negative count. An internal error that names the provision's
    place in its law file — never a wrong answer."""


class InputError(BridgelawError):
    """User input (an incident, a score result, a call) is wrong.

    ``field`` names the offending field as a dotted path (``auction[3]``,
    ``facts.established``).
    """

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


class UnknownCodeError(InputError):
    """No law code has the given id."""


class RequestConflictError(InputError):
    """A request names something already bound to another request: an idempotency key used before with a
    different request. The same request would be taken afresh; it conflicts with what was recorded."""


class TableError(InputError):
    """An action the table refuses. A game engine tells the cases apart by class, never by message."""


class MalformedActionError(TableError):
    """The action does not parse (``1Z``, a seat ``Q``), or names what is not there (a card the player
    does not hold, a strain the code lacks, an option the ruling does not offer)."""


class IllegalActionError(TableError):
    """Well formed and in turn, but not open to the player under the code or a penalty in force (the
    dealer who must declare passes; a double the doubling limit or a bar forbids)."""


class UnmodelledActionError(TableError):
    """An action the laws allow (or do not forbid) that the engine cannot yet carry through: the message says
    which law it cannot yet follow. Not an irregularity, and not illegal: a limit of the engine, said."""


class OutOfTurnError(TableError):
    """Not this player's turn, or not the time for this action (a card in the auction), where the laws do
    not treat it as an irregularity to be ruled."""


class RulingPendingError(TableError):
    """A ruling waits: the table takes nothing else until it is applied (or its questions answered)."""


class TableStateError(TableError):
    """A table's state (its JSON) that the table could not have reached: malformed, or disagreeing with
    its own history."""


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """Return ``" (did you mean 'x'?)"`` for the closest choice, or ``""``."""
    import difflib  # deferred: only a word not found is matched

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
