"""The resident process behind the query commands (server/cli/resident.py): the installed
``symfuse`` starts it, later commands are answered by it with what the command itself
prints, edits are seen, and it leaves when stopped, idle, or when symfuse changes."""

from __future__ import annotations

import fcntl
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.cli import run_symfuse, write_tree

pytestmark = pytest.mark.timeout(120)

FILES = {
    "shop/orders.py": (
        "class Order:\n"
        '    """An order placed by a customer."""\n\n'
        "    def total(self):\n"
        "        return sum_prices(self)\n\n\n"
        "def sum_prices(order):\n"
        "    return 0\n"
    ),
}


@pytest.fixture
def env(tmp_path: Path) -> Iterator[dict[str, str]]:
    """The variables of one resident process of its own (its folder under tmp_path),
    stopped at the end whatever the test did."""
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    values = {
        "SYMFUSE_RESIDENT": "on",
        "SYMFUSE_RESIDENT_IDLE": "120",  # a process a failed test leaves ends anyway
        "XDG_RUNTIME_DIR": str(runtime),
        "CI": "",  # CI machines start none (test_a_ci_machine_starts_none)
    }
    yield values
    run_symfuse(["resident", "stop"], env=values)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "ws", FILES)


def _search(root: Path, env: dict[str, str], query: str, *more: str) -> tuple[int, str, str]:
    args = ["search", query, str(root), "--index-dir", str(root.parent / "idx"), *more]
    done = run_symfuse(args, check=False, env=env)
    return done.returncode, done.stdout, done.stderr


def _answered(env: dict[str, str]) -> int | None:
    """How many commands the resident process answered (None: none runs); waits for
    one being started to listen."""
    line = run_symfuse(["resident", "status"], env=env).stdout.strip()
    if line == "not running":
        return None
    return int(line.split(", ")[1].split()[0])


def test_a_query_starts_one_and_the_next_is_answered_by_it_the_same(
    root: Path, env: dict[str, str]
) -> None:
    assert _answered(env) is None
    first = _search(root, env, "sum_prices", "--output-format", "json")
    assert _answered(env) == 0  # started by the first command, which ran itself
    second = _search(root, env, "sum_prices", "--output-format", "json")
    assert _answered(env) == 1
    alone = _search(
        root, {**env, "SYMFUSE_RESIDENT": "off"}, "sum_prices", "--output-format", "json"
    )
    assert first == second == alone
    assert '"name": "sum_prices"' in second[1]


def test_it_loads_the_index_of_the_command_that_started_it(root: Path, env: dict[str, str]) -> None:
    run_symfuse(["index", str(root), "--index-dir", str(root.parent / "idx")], env=env)
    _search(root, env, "Order")  # runs itself; the process it starts loads its index
    status = run_symfuse(["resident", "status"], env=env).stdout
    assert ", 0 commands answered, 1 index loaded, " in status
    assert "Order class" in _search(root, env, "Order")[1]
    assert (
        ", 1 commands answered, 1 index loaded, "
        in run_symfuse(["resident", "status"], env=env).stdout
    )


def test_edits_are_seen_and_errors_keep_their_exit_codes(root: Path, env: dict[str, str]) -> None:
    run_symfuse(["resident", "start"], env=env)
    code, out, _ = _search(root, env, "Order", "--limit", "1")
    assert code == 0
    assert "shop/orders.py:1:7: Order class" in out
    (root / "shop" / "refunds.py").write_text("def refund_order(order):\n    return order\n")
    code, out, _ = _search(root, env, "refund_order", "--limit", "1")
    assert (code, out.strip()) == (0, "shop/refunds.py:1:5: refund_order function")
    (root / "shop" / "refunds.py").unlink()
    code, out, _ = _search(root, env, "refund_order")
    assert code == 0
    assert "refunds.py" not in out
    code, out, err = _search(root, env, "Order", "--limit", "zero")
    assert code == 2
    assert "--limit" in err
    assert _answered(env) == 4


def test_each_command_names_a_missing_root(root: Path, env: dict[str, str]) -> None:
    run_symfuse(["resident", "start"], env=env)
    gone = root.parent / "gone"
    for _ in range(2):  # the resident process answers both: each says it
        code, out, err = _search(root, env, "Order", str(gone), "--limit", "1")
        assert code == 0
        assert "Order class" in out
        assert f"symfuse: error: workspace root {gone} is not a directory" in err
    assert _answered(env) == 2


def test_stop_and_idle_end_it(root: Path, env: dict[str, str]) -> None:
    run_symfuse(["resident", "start"], env=env)
    assert run_symfuse(["resident", "stop"], env=env).stdout.strip() == "stopped"
    assert _answered(env) is None
    idle = {**env, "SYMFUSE_RESIDENT_IDLE": "1"}
    assert _answered(idle) is None
    run_symfuse(["resident", "start"], env=idle, check=False)  # it may be gone already
    _wait_gone(Path(idle["XDG_RUNTIME_DIR"]) / "symfuse")  # it leaves once idle
    assert _answered(idle) is None


def _wait_gone(folder: Path) -> None:
    """Until every resident process of ``folder`` ended (each holds its .alive lock)."""
    for alive in folder.glob("*.alive"):
        fd = os.open(alive, os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)
        finally:
            os.close(fd)


def test_a_ci_machine_starts_none_and_off_means_off(root: Path, env: dict[str, str]) -> None:
    code, out, _ = _search(root, {**env, "CI": "true"}, "Order")
    assert code == 0
    assert "Order class" in out
    assert _answered(env) is None
    off = {**env, "SYMFUSE_RESIDENT": "off"}
    done = run_symfuse(["resident", "start"], env=off, check=False)
    assert (done.returncode, done.stderr.strip()) == (1, "symfuse: error: SYMFUSE_RESIDENT is off")
    _search(root, off, "Order")
    assert _answered(env) is None


def test_a_folder_others_can_enter_is_not_used(tmp_path: Path, env: dict[str, str]) -> None:
    shared = tmp_path / "shared"
    (shared / "symfuse").mkdir(parents=True)
    (shared / "symfuse").chmod(0o755)
    done = run_symfuse(
        ["resident", "start"], env={**env, "XDG_RUNTIME_DIR": str(shared)}, check=False
    )
    assert (done.returncode, done.stderr.strip()) == (
        1,
        "symfuse: error: no private folder for a resident process",
    )


def test_a_changed_file_of_symfuse_is_seen(tmp_path: Path) -> None:
    from symfuse.server.cli.resident_serve import Code

    module = tmp_path / "symfuse_probe_module.py"
    module.write_text("X = 1\n")
    name = "symfuse_probe_module"
    sys.path.insert(0, str(tmp_path))
    try:
        __import__(name)
        code = Code()
        assert module.as_posix() in code.files
        assert not code.changed()
        module.write_text("X = 22\n")
        assert code.changed()
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop(name, None)
