from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"

# The tests never write into the user's own cache (~/.cache/bridgelaw): unless the caller chose a cache,
# the whole session (and every command it starts) uses a temporary one.
if not os.environ.get("BRIDGELAW_CACHE"):
    import atexit
    import shutil
    import tempfile

    _CACHE = tempfile.mkdtemp(prefix="bridgelaw-test-cache-")
    os.environ["BRIDGELAW_CACHE"] = _CACHE
    atexit.register(shutil.rmtree, _CACHE, True)


def expectations(path: Path) -> dict[str, str]:
    """The `# error:`, `# at:` ... comment lines heading a broken fixture."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^#\s*([a-z-]+):\s*(.*)$", line)
        if not m:
            break
        out[m.group(1)] = m.group(2)
    return out


@pytest.fixture
def fresh_codes():
    """For tests that point BRIDGELAW_DATA elsewhere: no cached code leaks in or out."""
    from bridgelaw.loader import clear_cache

    clear_cache()
    yield
    clear_cache()


# CI runs the property tests (and schemathesis) on a fixed sequence of examples, so that a green run is
# repeatable; locally they explore afresh each time.
from hypothesis import settings as _hsettings  # noqa: E402

_hsettings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    _hsettings.load_profile("ci")
