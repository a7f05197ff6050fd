"""The console script's entry turns the cyclic collector off before it imports the
command line, for one-shot commands; the servers keep it (server/cli/launch.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# The entry as the console script runs it, then whether the collector was on; the
# command is --help or --version: argparse ends it with SystemExit before any work.
PROBE = """
import gc
import sys

sys.argv = ["symfuse", *sys.argv[1:]]
from symfuse.server.cli.launch import main

try:
    main()
except SystemExit:
    pass
print("collector on" if gc.isenabled() else "collector off", file=sys.stderr)
"""


@pytest.mark.parametrize(
    ("words", "state"),
    [
        (["search", "--help"], "collector off"),
        (["--version"], "collector off"),
        (["lsp", "--help"], "collector on"),
        (["mcp", "--help"], "collector on"),
    ],
)
def test_one_shot_commands_run_without_the_collector(
    tmp_path: Path, words: list[str], state: str
) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(probe), *words], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().splitlines()[-1] == state


def test_the_console_script_is_the_launcher() -> None:
    from importlib.metadata import entry_points

    (script,) = [e for e in entry_points(group="console_scripts") if e.name == "symfuse"]
    assert script.value == "symfuse.server.cli.launch:main"
