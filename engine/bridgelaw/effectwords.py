"""The effect kinds' words as a plain table: what saying an effect in words reads of the effect vocabulary.

:mod:`bridgelaw.vocabulary` reads ``schema/effects.yaml`` into typed specs (:class:`~bridgelaw.vocabulary.KindSpec`,
:class:`~bridgelaw.vocabulary.Wording`, :class:`~bridgelaw.vocabulary.FieldSpec`); :func:`table` derives from them
the little that :func:`bridgelaw.wording.effect_sentence` reads — each kind's wordings with the conditions that
select them, and each field's type and the words of its values — as tuples and dicts, so that a ruling kit
(:mod:`bridgelaw.kit`) carries it and a warm start says its effects without importing the vocabulary. The rule
that selects a wording is :func:`matches`, which :meth:`Wording.matches <bridgelaw.vocabulary.Wording.matches>`
applies too: one rule, whichever form is read.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from typing import Any, Mapping

    from .vocabulary import Vocabulary

__all__ = ["PLACEHOLDER", "matches", "table", "wording_for"]

#: A placeholder of a wording: ``{field}`` or ``{field:format}``.
PLACEHOLDER = re.compile(r"\{([a-z][a-z_]*)(?::([a-z]+))?\}")


def matches(with_: tuple[str, ...], without: tuple[str, ...], where: tuple[tuple[str, Any], ...],
            below: tuple[tuple[str, int], ...], args: Mapping[str, Any]) -> bool:
    """Do an effect's fields ``args`` meet a wording's conditions: the fields it needs given (``with``), those it
    excludes not given (``without``), the values it names given as named (``where``: a flag is no number), and
    the numbers it bounds below their bound (``below``)?"""
    if any(args.get(f) is None for f in with_):
        return False
    if any(args.get(f) is not None for f in without):
        return False
    for f, v in where:
        got = args.get(f)
        if got is None or got != v or isinstance(got, bool) != isinstance(v, bool):
            return False
    for f, n in below:
        got = args.get(f)
        if not isinstance(got, int) or isinstance(got, bool) or not got < n:
            return False
    return True


def table(vocab: Vocabulary) -> dict[str, Any]:
    """Each effect kind of ``vocab`` by name, as what saying its effects reads: its wordings in the file's order,
    each ``(text, with, without, where, below)``, and its fields by name, each ``(type, {value: words})`` (the
    words of a choice's values; empty for any other type)."""
    return {k.name: (tuple((w.text, w.with_, w.without, w.where, w.below) for w in k.wording),
                     {f.name: (f.type, dict(f.values)) for f in k.fields})
            for k in vocab.kinds}


def wording_for(words: Any, args: Mapping[str, Any]) -> str | None:
    """The text of the first of a kind's wordings (its entry in a :func:`table`) whose conditions ``args`` meet (None:
    none; the vocabulary's own :meth:`~bridgelaw.vocabulary.KindSpec.wording_for` says why)."""
    for text, with_, without, where, below in words[0]:
        if matches(with_, without, where, below, args):
            return text  # type: ignore[no-any-return]
    return None
