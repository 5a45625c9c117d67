"""``python -m bridgelaw``: the same command as ``bridgelaw``."""

import sys

from .cli import main

sys.exit(main())
