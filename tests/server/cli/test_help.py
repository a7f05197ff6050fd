"""Help pages and roots as a new user meets them (issue 37, item 5): examples on every
page, the common options first, a file as a root, a missing root named plainly."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from symfuse.server.cli.help import EXAMPLES
from symfuse.server.cli.main import build_parser
from tests.support.cli import run_symfuse

COMMANDS = sorted(EXAMPLES)


def test_every_command_has_examples_that_parse() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.choices and "search" in a.choices)
    assert set(sub.choices) == set(EXAMPLES)  # a new command gets examples too
    for command, examples in EXAMPLES.items():
        assert len(examples) >= 2, command
        for example in examples:
            words = shlex.split(example.replace("<(", "").replace(")", ""), comments=True)
            words = words[words.index("symfuse") + 1 :]
            if "--help" in words:
                continue
            _, extras = build_parser(words[0]).parse_known_args(words)
            assert all(not e.startswith("-") for e in extras), (example, extras)


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS)
def test_help_pages_end_with_examples(command: str) -> None:
    page = run_symfuse([command, "--help"]).stdout
    assert page.startswith(f"usage: symfuse {command} ")
    assert "\nexamples:\n" in page
    assert "symfuse " in page.rstrip().splitlines()[-1]


@pytest.mark.slow
def test_search_help_puts_the_common_options_first() -> None:
    page = run_symfuse(["search", "--help"]).stdout
    lines = page.splitlines()
    assert lines[0] == "usage: symfuse search QUERY [ROOT ...] [options]"
    options = lines.index("options:")
    assert lines[options + 1].split()[0] == "-h,"
    assert lines[options + 2].split()[0] == "--kind"
    headings = [line for line in lines if line and not line.startswith(" ") and line.endswith(":")]
    assert headings[:3] == ["positional arguments:", "options:", "more options:"]
    assert headings[-2].startswith("serving")  # cluster and TLS options last, under a heading
    assert page.index("--tls-cert") > page.index("--fusion-weights") > page.index("--limit")


@pytest.mark.slow
def test_a_missing_root_is_named(tmp_path: Path) -> None:
    done = run_symfuse(["search", "x", str(tmp_path / "nope")], check=False)
    assert done.returncode == 1
    assert done.stderr.strip() == f"symfuse: error: no such directory: {tmp_path / 'nope'}"


@pytest.mark.slow
def test_a_file_as_the_root_searches_that_file_alone(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "app.py").write_text("class Client:\n    def send(self):\n        pass\n")
    (tmp_path / "other.py").write_text("def send_other():\n    pass\n")
    (tmp_path / "sub" / "app.py").write_text("def send_sub():\n    pass\n")  # same name
    found = run_symfuse(["search", "send", str(tmp_path / "app.py")]).stdout
    assert found.splitlines() == ["app.py:2:9: Client.send method"]
    text = run_symfuse(["text", "send", str(tmp_path / "app.py"), "--snippet-lines", "0"])
    assert text.stdout.splitlines() == ["app.py:2:9:     def send(self):"]
    # Its folder keeps its own index: searching it after the file finds every file.
    folder = run_symfuse(["search", "send", str(tmp_path), "--limit", "5"]).stdout
    assert {line.split(":")[0] for line in folder.splitlines()} >= {"app.py", "other.py"}
    mixed = run_symfuse(["search", "send", str(tmp_path / "app.py"), str(tmp_path)], check=False)
    assert mixed.returncode == 1
    assert "is a file: give it as the only root" in mixed.stderr
