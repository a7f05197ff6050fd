"""A plain ``pip install .`` gives ``symfuse.*`` and the console script, nothing top-level."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.support.paths import REPO

pytestmark = pytest.mark.slow  # a new venv and a pip install


def _packages() -> list[str]:
    """Every package of the three folders, as pyproject.toml must list it."""
    found = []
    for layer in ("server", "indexer", "ranking"):
        for init in sorted((REPO / layer).rglob("__init__.py")):
            found.append("symfuse." + ".".join(init.parent.relative_to(REPO).parts))
    return found


def test_plain_install_has_no_top_level_server_indexer_or_ranking(tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True, system_site_packages=False)
    python = env_dir / "bin" / "python"
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-deps", str(REPO)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert install.returncode == 0, install.stderr
    probe = (
        "import importlib.util as u\n"
        "for top in ('server', 'indexer', 'ranking'):\n"
        "    assert u.find_spec(top) is None, top\n"
        f"for sub in {_packages()!r}:\n"
        "    assert u.find_spec(sub) is not None, sub\n"
        "import importlib.resources as r\n"
        "assert r.files('symfuse.indexer.extract.queries').joinpath('python.scm').is_file()\n"
    )
    checked = subprocess.run(
        [str(python), "-c", probe], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    assert checked.returncode == 0, checked.stderr
    assert (env_dir / "bin" / "symfuse").exists()
    assert sys.executable != str(python)
