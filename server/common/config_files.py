"""Where settings come from, found without importing the settings model (pydantic).

``symfuse index`` runs after every save: with no configuration file and no
``SYMFUSE_*`` variable it uses the defaults and never loads the model.
"""

from __future__ import annotations

import os
from pathlib import Path

WORKSPACE_FILE = "symfuse.toml"
ENV_PREFIX = "SYMFUSE_"
NOT_SETTINGS = frozenset(  # read elsewhere
    {"SYMFUSE_MCP_TOKEN", "SYMFUSE_UPDATE_GOLDEN", "SYMFUSE_SEMANTIC_MODEL"}
    | {"SYMFUSE_RESIDENT", "SYMFUSE_RESIDENT_IDLE"}
)


def user_file() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "symfuse" / "config.toml"


def any_source(workspace: Path | None) -> bool:
    """Whether a configuration file or a ``SYMFUSE_*`` setting variable exists."""
    if any(k.startswith(ENV_PREFIX) and k not in NOT_SETTINGS for k in os.environ):
        return True
    files = [user_file()] if workspace is None else [user_file(), workspace / WORKSPACE_FILE]
    return any(f.is_file() for f in files)
