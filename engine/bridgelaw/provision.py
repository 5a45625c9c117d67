"""A provision as loaded — when it applies and what follows — with its effects and options: what the referee's
compiled functions read as they rule (:mod:`bridgelaw.ruler`), kept in a module of its own so that a ruling kit
(:mod:`bridgelaw.kit`) holds them without the loader that makes them."""

from __future__ import annotations

from dataclasses import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from typing import Any

    from .conditions import Compiled, Expr
    from .values import EffectKind

__all__ = ["EffectSpec", "OptionSpec", "Provision"]


@dataclass(frozen=True)
class EffectSpec:
    """An effect as a provision writes it: its kind and its fields, each a literal or a compiled expression."""

    kind: EffectKind
    fields: tuple[tuple[str, Any, Compiled | None], ...]  # (name, literal value or source, compiled)


@dataclass(frozen=True)
class OptionSpec:
    """One option of a provision's chooser: its id, its label, its effects and when it is offered."""

    id: str
    label: str
    effects: tuple[EffectSpec, ...]
    when: Compiled | None = None
    when_text: str = ""


@dataclass(frozen=True)
class Provision:
    """One rule of a law: when it applies, and what follows (automatic effects, or options).

    ``chooser`` gives a seat, a side (either of its players) or, for a list chooser (``[succeeding_player,
    third_player]``: "either other player"), a tuple of seats. ``chooser_at`` is where the chooser is written
    (``path:line:col``), for an error at ruling time; ``own_choice``: the options are a choice the law leaves
    to the offender himself (a correction of his own), so the chooser need not be innocent.
    """

    id: str
    full_id: str
    law: str
    clause: str
    kinds: tuple[str, ...]
    when_text: str
    when_tree: Expr | None
    when: Compiled
    effects: tuple[EffectSpec, ...]
    chooser_text: str
    chooser: Compiled | None
    options: tuple[OptionSpec, ...]
    overrides: tuple[str, ...]
    footnotes: tuple[str, ...]
    notes: tuple[str, ...]
    cites: tuple[str, ...]
    needs: frozenset[str]
    when_shown: str = ""
    needs_sorted: tuple[str, ...] = ()
    chooser_trees: tuple[Expr, ...] = ()
    chooser_at: str = ""
    own_choice: bool = False
    phases: tuple[str, ...] = ()
    at: str = ""  # where the provision is written (path:line:col)
