"""The limits bridgelaw holds every input to, so that no input can crash or hang it.

These are limits of the machinery, not numbers a law states. Each is far
above what the shipped data needs (the figure in each comment), and each is
refused at ``path:line:col`` with the limit named.
"""

from __future__ import annotations

import re  # (re.search keeps the compiled set of controls in its cache)

__all__ = ["FILE_BYTES", "PBN_LINE_BYTES", "RECORD_BYTES", "YAML_DEPTH", "INT_DIGITS", "YAML_ALIASES", "YAML_VALUES", "CONDITION_LENGTH", "CONDITION_DEPTH", "NOTE_PATTERN",
           "control_in"]

#: Bytes of one file read: a law file, an incident, a score sheet (the largest shipped file has about 53,000).
FILE_BYTES = 4_000_000
#: Bytes of one line of a PBN file, which is read line by line however long (§2.3 keeps a line within 255
#: characters): past it, a stream of zeros or a binary file is refused at that line instead of being held whole.
PBN_LINE_BYTES = 1 << 20
#: Bytes of a deal record (JSON or YAML) that replay reads whole (an archive of records is larger than any one
#: file above: 10,000 records are about 10 MB).
RECORD_BYTES = 64_000_000
#: Nesting of YAML mappings and sequences (law files need about ten).
YAML_DEPTH = 40
#: Digits of an integer, in YAML or in a condition (scores and counts need four or five).
INT_DIGITS = 9
#: Aliases (``*name``) in one YAML document (no shipped file uses one).
YAML_ALIASES = 100
#: Values in one YAML document once its aliases are expanded (the largest shipped file has about 1,300).
YAML_VALUES = 100_000
#: Characters in one condition or expression (the longest shipped condition has 173).
CONDITION_LENGTH = 1_000
#: Nesting of one condition's tree: operators, calls and lists inside each other (the deepest shipped has 7).
CONDITION_DEPTH = 32

#: A free text an input carries (an incident's or a sheet's note, a penalty's reason, the referee's note in the
#: ruling log): any characters but the controls, bar tab, line feed and carriage return -- a NUL or an escape
#: sequence would be stored and then written to a terminal as it came (the schemas' ``pattern`` of those fields).
_CONTROLS = "\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f"  # one set, for both below
NOTE_PATTERN = f"^[^{_CONTROLS}]*$"


def control_in(text: str) -> str | None:
    """What is wrong with a free text holding a control character (None: nothing): the first one, named."""
    m = re.search(f"[{_CONTROLS}]", text)
    if m is None:
        return None
    return (f"U+{ord(m.group()):04X}, a control character, at character {m.start() + 1}: this text takes none "
            "but tab and line breaks")

