"""The installed ``symfuse`` command: index, symbols, stats, errors, and being killed."""

from __future__ import annotations

import json
import os
import random
import select
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
import toon_format

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.update.workspace import load_index, update_index
from tests.support.cli import run_symfuse, symfuse_command
from tests.support.paths import FIXTURES

pytestmark = pytest.mark.slow  # each test runs the installed symfuse command


def test_index_prints_a_summary_and_stdout_is_clean(shop: Path, index_dir: Path) -> None:
    result = run_symfuse(["index", str(shop), "--index-dir", str(index_dir)])
    assert "4 files (4 parsed" in result.stdout
    assert "definitions" in result.stdout
    assert "python 4" in result.stdout
    again = run_symfuse(
        ["index", str(shop), "--index-dir", str(index_dir), "--output-format", "json"]
    )
    summary = json.loads(again.stdout)
    assert summary["parsed"] == 0
    assert summary["unchanged"] == 4
    assert summary["languages"] == {"python": 4}
    assert summary["definitions"] >= 10
    assert set(summary) >= {"files", "definitions", "references", "edges", "seconds"}


def test_symbols_dump_every_field_in_each_format(shop: Path, index_dir: Path) -> None:
    base = ["symbols", str(shop), "--index-dir", str(index_dir)]
    lines = run_symfuse([*base, "--output-format", "jsonl"]).stdout.splitlines()
    rows = [json.loads(line) for line in lines]
    order = next(r for r in rows if r["name"] == "Order")
    assert order == {
        "symbol_id": "shop/models.py::Order#class",
        "name": "Order",
        "kind": "class",
        "fqn": "shop.models.Order",
        "signature": "class Order(Base)",
        "language": "python",
        "file": "shop/models.py",
        "root": "shop_ws",
        "line": 13,
        "col": 1,
        "end_line": 23,
        "end_col": 76,
        "name_line": 13,
        "name_col": 7,
        "name_end_line": 13,
        "name_end_col": 12,
        "parent": None,
        "decorators": [],
        "extends": ["Base"],
        "implements": [],
        "doc": "An order placed by a customer.",
    }
    as_json = json.loads(run_symfuse([*base, "--output-format", "json"]).stdout)
    assert as_json["symbols"] == rows
    as_toon = run_symfuse([*base, "--output-format", "toon"]).stdout
    assert toon_format.decode(as_toon) == as_json
    text = run_symfuse([*base, "--output-format", "text"]).stdout
    assert text.splitlines()[0].split()[:3] == ["KIND", "NAME", "FQN"]


def test_symbols_filters(shop: Path, index_dir: Path) -> None:
    base = ["symbols", str(shop), "--index-dir", str(index_dir), "-f", "jsonl"]
    methods = [json.loads(x) for x in run_symfuse([*base, "--kind", "method"]).stdout.splitlines()]
    assert {m["name"] for m in methods} == {"__init__", "save", "total"}  # with constructors
    ctors = run_symfuse([*base, "--kind", "ctor"]).stdout.splitlines()
    assert {json.loads(x)["kind"] for x in ctors} == {"constructor"}
    in_util = run_symfuse([*base, "--file", "shop/util.py"]).stdout.splitlines()
    assert {json.loads(x)["name"] for x in in_util} == {"money", "unused_helper"}
    globbed = run_symfuse([*base, "--file", "*/views.py"]).stdout.splitlines()
    assert [json.loads(x)["name"] for x in globbed] == ["checkout"]


def test_stats(shop: Path, index_dir: Path) -> None:
    out = run_symfuse(["stats", str(shop), "--index-dir", str(index_dir), "-f", "json"]).stdout
    stats = json.loads(out)
    assert stats["files"] == 4
    assert stats["languages"] == {"python": 4}
    assert stats["kinds"]["method"] == 2
    assert stats["index_dir"] == str(index_dir)
    text = run_symfuse(["stats", str(shop), "--index-dir", str(index_dir)]).stdout
    assert "total: 4 files" in text


def test_fatal_errors_are_one_line_and_non_zero(tmp_path: Path) -> None:
    missing = run_symfuse(["index", str(tmp_path / "nope")], check=False)
    assert missing.returncode == 1
    assert missing.stdout == ""
    assert missing.stderr.strip().count("\n") == 0
    assert f"no such directory: {tmp_path / 'nope'}" in missing.stderr
    bad_kind = run_symfuse(
        ["symbols", str(tmp_path), "--index-dir", str(tmp_path / "i"), "--kind", "gizmo"],
        check=False,
    )
    assert bad_kind.returncode == 2  # bad usage
    assert "--kind: unknown kind 'gizmo'" in bad_kind.stderr
    usage = run_symfuse(["index", "--max-file-size", "lots"], check=False)
    assert usage.returncode == 2


def _workload(root: Path, copies: int) -> None:
    """A few hundred real files: the language fixtures, copied under many folders."""
    samples = sorted(p for p in (FIXTURES / "languages").glob("*/sample.*"))
    for i in range(copies):
        for sample in samples:
            target = root / f"pkg{i}" / sample.parent.name / sample.name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(sample, target)


def _processes_naming(text: str) -> set[int]:
    """Processes whose command line mentions ``text`` (Linux /proc)."""
    found: set[int] = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if text in cmdline:
                found.add(int(entry.name))
    return found


def _wait_gone(pids: set[int]) -> set[int]:
    """Wait for each process to end (its pidfd becomes readable); those still running after
    a safety bound that only turns a hang into a failure."""
    left: set[int] = set()
    for pid in pids:
        try:
            fd = os.pidfd_open(pid)
        except ProcessLookupError:
            continue  # gone already
        try:
            if not select.select([fd], [], [], 60)[0] and not _zombie(pid):
                left.add(pid)
        finally:
            os.close(fd)
    return left


def _zombie(pid: int) -> bool:
    try:
        return " Z " in Path(f"/proc/{pid}/stat").read_text().split(")", 1)[1][:4]
    except OSError:
        return True


def test_killing_index_never_leaves_a_broken_index(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    _workload(root, 12)
    index_dir = tmp_path / "index"
    command = [*symfuse_command(), "index", str(root), "--index-dir", str(index_dir)]
    rng = random.Random(7)
    config = IndexConfig(roots=(root,), index_dir=index_dir, progress=False)
    for attempt in range(8):
        victim = next(root.glob("pkg0/python/sample.py"))
        if attempt % 3 == 2:  # change a file so kills also land in incremental updates
            victim.write_text(victim.read_text() + f"\n\ndef added_{attempt}():\n    pass\n")
        elif attempt % 3 == 1:  # and in records-only ones (no definition or link moves)
            victim.write_text(victim.read_text() + f"\n# note {attempt}\n")
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # Not a wait for anything: a seeded moment to kill at, to land in different phases.
        # Every moment must leave a loadable index, so the outcome does not depend on it.
        time.sleep(rng.uniform(0.05, 1.5))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        left = _wait_gone(_processes_naming(str(index_dir)))
        assert not left, f"workers outlived the kill: {left}"
        loaded = load_index(config)  # must load, or report that there is none
        if loaded is not None:
            for entry in list(loaded.files.values())[:50]:
                entry.references()
    final, _ = update_index(config)
    clean, _ = update_index(IndexConfig(roots=(root,), index_dir=tmp_path / "clean"))
    assert [s.symbol_id for s in final.symbols] == [s.symbol_id for s in clean.symbols]
    assert final.edges_by_file.keys() == clean.edges_by_file.keys()


def test_concurrent_index_runs_take_turns(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    _workload(root, 4)
    index_dir = tmp_path / "index"
    command = [*symfuse_command(), "index", str(root), "--index-dir", str(index_dir), "-f", "json"]
    procs = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(3)
    ]
    outputs = [proc.communicate(timeout=300) for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0, 0], outputs
    files = json.loads(outputs[0][0])["files"]
    parsed = sorted(json.loads(out)["parsed"] for out, _ in outputs)
    assert parsed == [0, 0, files]  # one run did the work; the lock made the others wait
    loaded = load_index(IndexConfig(roots=(root,), index_dir=index_dir))
    assert loaded is not None
    assert len(loaded.files) == json.loads(outputs[0][0])["files"]


def _run_on_pty(args: list[str]) -> bytes:
    """Run with stderr on a 120-column pseudo-terminal; what it wrote there."""
    import fcntl
    import os
    import pty
    import select
    import struct
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=follower, close_fds=True)
    os.close(follower)
    written = b""
    while select.select([leader], [], [], 60)[0]:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the child closed its end
            break
        if not chunk:
            break
        written += chunk
    assert proc.wait(timeout=60) == 0
    os.close(leader)
    return written


def test_progress_bar_on_a_terminal_only(tmp_path: Path) -> None:
    tree = tmp_path / "many"
    tree.mkdir()
    for i in range(80):  # enough files for the parser pool
        (tree / f"m{i}.py").write_text(f"def f{i}(x):\n    return g{i}(x)\n")
    command = [*symfuse_command(), "index", str(tree)]
    on_terminal = _run_on_pty([*command, "--index-dir", str(tmp_path / "a")])
    assert b"indexing" in on_terminal, on_terminal
    assert b"/80" in on_terminal, on_terminal
    piped = run_symfuse(["index", str(tree), "--index-dir", str(tmp_path / "b")])
    assert "80 files (80 parsed" in piped.stdout
    assert "indexing" not in piped.stderr
    assert "/80" not in piped.stderr
    quiet = _run_on_pty([*command, "--index-dir", str(tmp_path / "c"), "--no-progress"])
    assert b"indexing" not in quiet
    assert b"/80" not in quiet


# What a warm `symfuse search` runs without, loaded only by what needs it (issue 39): the
# other operations' request models (pydantic builds each model's validator as the class
# is made), the call graph and its targets (a "who calls X" question's), a symbol's
# details, the semantic extra's model and vectors, the servers' answer cache, the grouping
# of JSON and table output, numpy.ma (which the first plain np.unique imports), and the
# parsing and patching of an update that finds a file changed.
NOT_FOR_A_SEARCH = frozenset(
    {
        *("symfuse.indexer.extract.parsing", "symfuse.indexer.update.apply"),
        "symfuse.indexer.update.records_only",
        *("symfuse.ranking.query.requests", "symfuse.ranking.query.analysis_requests"),
        "symfuse.ranking.query.history_requests",
        *("symfuse.ranking.graph.call_questions", "symfuse.ranking.graph.hierarchy"),
        *("symfuse.ranking.graph.targets", "symfuse.ranking.graph.positions"),
        *("symfuse.indexer.link.resolve", "symfuse.ranking.search.details"),
        *("symfuse.ranking.channels.neural.model", "symfuse.ranking.channels.neural.bert"),
        "symfuse.ranking.channels.neural.vectors",
        *("symfuse.server.common.cache", "symfuse.server.common.present", "numpy.ma"),
    }
)


def _loaded_by_search(query: str, root: Path, index_dir: Path) -> set[str]:
    """The modules a process that ran ``symfuse search QUERY`` (and nothing else) holds."""
    import sys

    probe = (
        "import sys; from symfuse.server.cli import main as cli; "
        f"code = cli.main(['search', {query!r}, {str(root)!r}, '--index-dir', "
        f"{str(index_dir)!r}]); "
        "print('MODULES', *sorted(sys.modules), file=sys.stderr); sys.exit(code)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip(), out.stderr
    return set(out.stderr.split("MODULES", 1)[1].split())


def test_each_command_loads_only_its_own_modules(shop: Path, index_dir: Path) -> None:
    """`symfuse index` (run after every save by editor hooks) imports no parser, linker,
    process pool or ranking when nothing changed; `symfuse search` no TOON, MCP or LSP,
    and once the index and its ranking structures are built none of NOT_FOR_A_SEARCH
    (nor, for a name, the semantic extra's channel); `symfuse mcp` nothing of the MCP
    SDK or ranking before its index service starts; and the command table of the CLI
    names every command its modules add."""
    import sys

    from symfuse.server.cli import index as cmd_index
    from symfuse.server.cli import main as cli

    probe = (
        "import sys; from symfuse.server.cli import main as cli; cli.build_parser({command!r}); "
        "import symfuse.indexer.update.workspace; "
        "print(' '.join(sorted(m for m in sys.modules if m.startswith(('symfuse', "
        "'tree_sitter', 'toon_format', 'mcp', 'pygls', 'scipy', 'multiprocessing')))))"
    )

    def loaded(command: str) -> set[str]:
        out = subprocess.run(
            [sys.executable, "-c", probe.format(command=command)],
            capture_output=True,
            text=True,
            check=True,
        )
        return set(out.stdout.split())

    for_index = loaded("index")
    assert not {m for m in for_index if m.startswith("symfuse.ranking")}
    assert not for_index & {"tree_sitter", "symfuse.indexer.link.graph", "multiprocessing", "scipy"}
    for_search = loaded("search")
    assert "symfuse.server.cli.search" in for_search
    assert not {m for m in for_search if m.split(".")[0] in ("toon_format", "mcp", "pygls")}
    assert "symfuse.server.cli.query" not in for_search
    run_symfuse(["search", "Order", str(shop), "--index-dir", str(index_dir)])  # builds all
    for_a_name = _loaded_by_search("Order", shop, index_dir)
    assert "symfuse.ranking.search.pipeline" in for_a_name  # (it did search)
    assert for_a_name & NOT_FOR_A_SEARCH == set()
    assert "symfuse.ranking.channels.neural" not in for_a_name
    for_prose = _loaded_by_search("the total price of an order", shop, index_dir)
    assert "symfuse.ranking.channels.neural" in for_prose  # (it looked for saved vectors)
    assert for_prose & NOT_FOR_A_SEARCH == set()
    # `symfuse mcp` starts indexing before it loads the MCP SDK or the ranking layer
    # (server/cli/serve_mcp.py): neither its parser nor the index service loads them
    for_mcp = loaded("mcp")
    assert "symfuse.server.cli.serve_mcp" in for_mcp
    assert not {m for m in for_mcp if m.split(".")[0] in ("mcp", "pygls", "toon_format")}
    assert not {m for m in for_mcp if m.startswith(("symfuse.ranking", "symfuse.server.mcp."))}
    service = subprocess.run(
        [sys.executable, "-c", "import sys, symfuse.server.common.service; "
         "print(' '.join(m for m in sys.modules if m.startswith(('symfuse.ranking', 'mcp', "
         "'pydantic', 'scipy'))))"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert service.stdout.split() == []

    everything = cli.build_parser()
    sub = next(a for a in everything._actions if a.dest == "command")
    named = {c for commands in cli._COMMAND_MODULES.values() for c in commands}
    assert set(sub.choices) == named | cmd_index.COMMANDS
    for command in named:
        alone = cli.build_parser(command)
        alone_sub = next(a for a in alone._actions if a.dest == "command")
        assert command in alone_sub.choices


def test_every_command_answers_help() -> None:
    listing = run_symfuse(["--help"]).stdout
    for command in ("index", "symbols", "stats", "search", "usages", "get", "lsp", "mcp"):
        assert command in listing
        assert "usage: symfuse " + command in run_symfuse([command, "--help"]).stdout


def test_an_unusable_index_directory_is_one_clear_error(shop: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the index should go\n")
    for args in (["index", str(shop)], ["search", "order", str(shop)], ["stats", str(shop)]):
        for index_dir in (blocker, blocker / "below"):
            result = run_symfuse([*args, "--index-dir", str(index_dir)], check=False)
            assert result.returncode == 1, result.stderr
            assert result.stdout == ""
            lines = result.stderr.strip().splitlines()
            assert len(lines) == 1, result.stderr
            assert lines[0].startswith(f"symfuse: error: cannot write the index at {index_dir}")
    assert blocker.read_text() == "a file where the index should go\n"


def test_index_paths_reindexes_only_those_files(shop: Path, index_dir: Path) -> None:
    """``--paths`` (the reindex request's field): the named files alone are checked."""
    base = ["index", str(shop), "--index-dir", str(index_dir), "-f", "json"]
    run_symfuse(base)
    models, util = shop / "shop" / "models.py", shop / "shop" / "util.py"
    for path, extra in ((models, "\n\ndef added_here():\n    pass\n"), (util, "\n# edit\n")):
        path.write_text(path.read_text() + extra)
    summary = json.loads(run_symfuse([*base, "--paths", "shop/models.py"]).stdout)
    assert (summary["files"], summary["parsed"]) == (4, 1)
    everything = json.loads(run_symfuse(base).stdout)
    assert everything["parsed"] == 1  # util.py, left out above
    outside = run_symfuse([*base, "--paths", "../elsewhere.py"], check=False)
    assert outside.returncode == 1
    assert outside.stderr.startswith("symfuse: error: paths[0]: ")
    assert "--paths" in run_symfuse(["index", "--help"]).stdout
