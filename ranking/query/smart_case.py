"""Smart case, as ripgrep's ``--smart-case``: a pattern in lower case ignores case, one with
a capital letter matches case exactly. The CLI's ``text`` and MCP's ``search_text`` both
decide it here when the caller did not say."""

from __future__ import annotations

import re

_ESCAPE = re.compile(r"\\.")


def has_capital(pattern: str, regex: bool) -> bool:
    """Whether ``pattern`` has an upper-case letter of its own (in a regex, not the letter
    of an escape such as ``\\S`` or ``\\W``): whether smart case matches case exactly."""
    if regex:
        pattern = _ESCAPE.sub("", pattern)
    return any(c.isupper() for c in pattern)
