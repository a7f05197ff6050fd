"""The MCP tests' fixture: a fresh copy of the MCP fixture workspace."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.mcp import Workspace, copy_workspace


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    return copy_workspace(tmp_path)
