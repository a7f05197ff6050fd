"""Configuration through the installed ``symfuse``: the four sources in their order, ``symfuse
config`` naming each value's source, one clear error for a bad value, and JSON logs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import run_symfuse, write_tree

pytestmark = pytest.mark.slow  # each test runs the installed symfuse command

CODE = {
    "app/orders.py": "class Order:\n    def total(self):\n        return 1\n\n\n"
    "def place_order():\n    return Order()\n\n\ndef order_total(order):\n"
    "    return order.total()\n",
    "vendor/orders.py": "class VendorOrder:\n    pass\n",
}


def _setup(tmp_path: Path, workspace_toml: str = "", user_toml: str = "") -> dict[str, str]:
    """A workspace (with ``symfuse.toml`` when given) and a private user config directory;
    the environment that points symfuse at them."""
    write_tree(tmp_path / "ws", CODE)
    if workspace_toml:
        (tmp_path / "ws" / "symfuse.toml").write_text(workspace_toml)
    user = tmp_path / "xdg" / "symfuse"
    user.mkdir(parents=True)
    if user_toml:
        (user / "config.toml").write_text(user_toml)
    return {"XDG_CONFIG_HOME": str(tmp_path / "xdg")}


def _settings(tmp_path: Path, env: dict[str, str], *args: str) -> dict[str, dict[str, object]]:
    out = run_symfuse(["config", str(tmp_path / "ws"), "-f", "json", *args], env=env).stdout
    return {row["key"]: row for row in json.loads(out)["settings"]}


def test_each_source_overrides_the_ones_below_it(tmp_path: Path) -> None:
    env = _setup(
        tmp_path,
        workspace_toml='limit = 2\nexclude = ["vendor/**"]\n',
        user_toml='limit = 7\nmax_tokens = 900\nlog_level = "info"\n',
    )
    rows = _settings(tmp_path, env)
    assert rows["limit"]["value"] == 2
    assert rows["limit"]["source"] == str(tmp_path / "ws" / "symfuse.toml")
    assert rows["max_tokens"]["value"] == 900
    assert rows["max_tokens"]["source"] == str(tmp_path / "xdg" / "symfuse" / "config.toml")
    assert rows["jobs"]["source"] == "default"

    rows = _settings(tmp_path, {**env, "SYMFUSE_LIMIT": "4"})
    assert (rows["limit"]["value"], rows["limit"]["source"]) == (4, "SYMFUSE_LIMIT")
    rows = _settings(tmp_path, {**env, "SYMFUSE_LIMIT": "4"}, "--log-level", "error")
    assert (rows["log_level"]["value"], rows["log_level"]["source"]) == ("error", "--log-level")


def test_settings_reach_the_commands(tmp_path: Path) -> None:
    env = _setup(tmp_path, workspace_toml='limit = 2\nexclude = ["vendor/**"]\n')
    where = [str(tmp_path / "ws"), "--index-dir", str(tmp_path / "index")]
    found = json.loads(run_symfuse(["search", "order", *where, "-f", "json"], env=env).stdout)
    assert len(found["items"]) == 2  # limit from symfuse.toml
    assert all(not item["file"].startswith("vendor/") for item in found["items"])
    more = json.loads(
        run_symfuse(["search", "order", *where, "-f", "json", "--limit", "3"], env=env).stdout
    )
    assert len(more["items"]) == 3  # the command line wins
    as_toon = run_symfuse(["search", "order", *where], env={**env, "SYMFUSE_OUTPUT_FORMAT": "toon"})
    assert as_toon.stdout.startswith("query: order")


def test_a_bad_value_is_one_error_naming_the_file_the_key_and_the_fix(tmp_path: Path) -> None:
    env = _setup(tmp_path, workspace_toml='max_file_size = "big"\n')
    result = run_symfuse(["search", "order", str(tmp_path / "ws")], env=env, check=False)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"symfuse: error: {tmp_path / 'ws' / 'symfuse.toml'}: ")
    assert "max_file_size" in lines[0]
    assert "whole number" in lines[0]

    env = _setup(tmp_path / "other", user_toml="colour = 'blue'\n")
    result = run_symfuse(["config", str(tmp_path / "other" / "ws")], env=env, check=False)
    assert result.returncode == 2
    assert "colour: unknown setting; the known ones are include, exclude" in result.stderr

    env = _setup(tmp_path / "third")
    result = run_symfuse(
        ["config", str(tmp_path / "third" / "ws")],
        env={**env, "SYMFUSE_LOG_FORMAT": "xml"},
        check=False,
    )
    assert "SYMFUSE_LOG_FORMAT" in result.stderr
    assert result.returncode == 2


def test_json_logs_carry_the_request_id_operation_and_elapsed_ms(tmp_path: Path) -> None:
    env = _setup(tmp_path)
    where = [str(tmp_path / "ws"), "--index-dir", str(tmp_path / "index")]
    result = run_symfuse(["search", "order", *where, "--log-format", "json", "-v"], env=env)
    records = [json.loads(line) for line in result.stderr.splitlines()]
    done = [r for r in records if r["message"] == "query done"]
    assert len(done) == 1
    assert done[0]["operation"] == "search"
    assert done[0]["front_end"] == "cli"
    assert done[0]["request_id"]
    assert done[0]["elapsed_ms"] > 0
    assert {"time", "level", "logger"} <= set(done[0])

    log_file = tmp_path / "symfuse.log"
    quiet = run_symfuse(
        ["search", "order", *where],
        env={
            **env,
            "SYMFUSE_LOG_FILE": str(log_file),
            "SYMFUSE_LOG_LEVEL": "info",
            "SYMFUSE_LOG_FORMAT": "json",
        },
    )
    assert quiet.stderr == ""
    assert json.loads(log_file.read_text().splitlines()[-1])["message"] == "query done"


def test_doctor_checks_the_environment_and_names_the_fix(tmp_path: Path) -> None:
    env = _setup(tmp_path)
    ws = str(tmp_path / "ws")
    healthy = run_symfuse(["doctor", ws, "--index-dir", str(tmp_path / "index")], env=env)
    verdicts = {
        line.split()[1].rstrip(":"): line.split()[0]
        for line in healthy.stdout.splitlines()[:-1]
        if not line.startswith(" ")
    }
    assert verdicts["grammars"] == "ok"
    assert verdicts["index"] == "ok"  # "index directory: ... is writable"
    assert verdicts["settings"] == "ok"
    assert healthy.stdout.splitlines()[-1] == "symfuse can work here"

    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory\n")
    (tmp_path / "ws" / "symfuse.toml").write_text("jobs = 0\n")
    broken = run_symfuse(
        ["doctor", ws, "--index-dir", str(blocker), "-f", "json"], env=env, check=False
    )
    assert broken.returncode == 1
    report = json.loads(broken.stdout)
    failed = {row["check"]: row for row in report["checks"] if row["verdict"] == "FAIL"}
    assert set(failed) == {"settings", "index directory"}
    assert "jobs" in failed["settings"]["detail"]
    assert "--index-dir" in failed["index directory"]["fix"]
    assert report["broken"] == 2
