"""The table state's JSON Schema (``schema/table-state.schema.json``), checked once per process."""

from __future__ import annotations

import json
from typing import Any

from ..errors import TableStateError
from ..resources import schema_dir

__all__ = ["validate_state", "state_schema"]

_VALIDATOR: Any = None


def state_schema() -> dict[str, Any]:
    return json.loads((schema_dir() / "table-state.schema.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def validate_state(data: Any) -> None:
    """Raise :class:`TableStateError` naming the first place ``data`` departs from the schema."""
    global _VALIDATOR
    if _VALIDATOR is None:
        import jsonschema

        _VALIDATOR = jsonschema.Draft202012Validator(state_schema())
    err = next(iter(sorted(_VALIDATOR.iter_errors(data), key=lambda e: list(e.absolute_path))), None)
    if err is not None:
        where = "state" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err.absolute_path)
        raise TableStateError(where, err.message if len(err.message) < 200 else err.message[:197] + "...")
