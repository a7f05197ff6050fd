"""``symfuse doctor``: check what symfuse needs on this machine, and say what to fix.

Each check prints one line, ``ok``, ``warn`` or ``FAIL``, with what it found and,
when something is wrong, the fix. The command exits 1 when a check failed
(symfuse cannot work as configured) and 0 otherwise, warnings included.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import sys
import tempfile
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from symfuse.server.cli.common import format_option
from symfuse.server.common.output import OutputFormat, render

WATCH_WAIT = 5.0  # seconds the watcher check waits for the change it made

Verdict = Literal["ok", "warn", "FAIL"]


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    verdict: Verdict
    detail: str
    fix: str = ""


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "doctor",
        parents=[common],
        help="check the environment and say what to fix",
        description="Check that the grammars load, the index directory is writable, file "
        "watching works, the settings are valid, and which optional extras are installed; "
        "exit 1 when something is broken.",
    )
    p.add_argument("roots", nargs="*", metavar="ROOT", help="workspace root (default: .)")
    choices = (OutputFormat.TEXT, OutputFormat.JSON)
    format_option(p, choices, OutputFormat.TEXT)
    p.set_defaults(handler=run_doctor)


def run_doctor(args: argparse.Namespace) -> int:
    from symfuse.server.cli.common import index_config

    directory = index_config(args).store.directory
    checks: list[Callable[[], Check]] = [
        _python,
        _grammars,
        lambda: _writable(directory),
        _watcher,
        _extras,
    ]
    results = [_settings(getattr(args, "settings_error", None))]
    results += [check() for check in checks]
    rows = [
        {"check": r.name, "verdict": r.verdict, "detail": r.detail, "fix": r.fix} for r in results
    ]
    broken = sum(1 for r in results if r.verdict == "FAIL")
    if args.output_format is OutputFormat.TEXT:
        for r in results:
            print(
                f"{r.verdict:<4}  {r.name}: {r.detail}" + (f"\n      fix: {r.fix}" if r.fix else "")
            )
        print("symfuse can work here" if not broken else f"{broken} check(s) failed")
    else:
        print(render({"checks": rows, "broken": broken}, args.output_format))
    return 1 if broken else 0


def _settings(error: str | None) -> Check:
    if error is None:
        return Check("settings", "ok", "valid (symfuse config shows each value and its source)")
    return Check("settings", "FAIL", error, "correct or remove the value named")


def _python() -> Check:
    """Which symfuse and which interpreter (symfuse installs only on 3.11 and newer)."""
    from symfuse.server.common.about import version

    python = ".".join(map(str, sys.version_info[:3]))
    return Check("python", "ok", f"symfuse {version()} on Python {python}")


def _grammars() -> Check:
    """Every language's grammar loads and its query compiles (all bundled: no download)."""
    from symfuse.indexer.files import languages

    failed: list[str] = []
    names = sorted(languages.supported())
    for name in names:
        try:
            languages.query(name)
        except Exception as exc:  # any failure of a grammar is what this check reports
            failed.append(f"{name} ({type(exc).__name__}: {exc})")
    try:
        pack = importlib.metadata.version("tree-sitter-language-pack")
    except importlib.metadata.PackageNotFoundError:
        pack = "missing"
    if not failed:
        return Check("grammars", "ok", f"{len(names)} languages load (language pack {pack})")
    return Check(
        "grammars",
        "FAIL",
        f"{len(failed)} of {len(names)} fail: {', '.join(failed[:5])}",
        "reinstall symfuse: pip install --force-reinstall 'tree-sitter-language-pack==0.13.0'",
    )


def _writable(directory: Path) -> Check:
    probe = directory / f".doctor-{uuid.uuid4().hex}"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        probe.write_bytes(b"ok")
        probe.unlink()
    except OSError as exc:
        return Check(
            "index directory",
            "FAIL",
            f"{directory} is not writable ({exc.strerror or exc})",
            "pass --index-dir (or set index_dir in symfuse.toml) to a writable directory",
        )
    return Check("index directory", "ok", f"{directory} is writable")


def _watcher() -> Check:
    """A file written in a temporary directory is reported by the watcher."""
    from watchfiles import watch

    seen = threading.Event()
    stop = threading.Event()
    with tempfile.TemporaryDirectory(prefix="symfuse-doctor-") as tmp:

        def follow() -> None:
            for _changes in watch(tmp, stop_event=stop, debounce=50, rust_timeout=100):
                seen.set()
                return

        thread = threading.Thread(target=follow, daemon=True)
        thread.start()
        for attempt in range(int(WATCH_WAIT * 10)):
            (Path(tmp) / f"probe-{attempt}.txt").write_text("x")
            if seen.wait(0.1):
                break
        stop.set()
        thread.join(timeout=1.0)
    if seen.is_set():
        return Check("file watching", "ok", "changes on disk are seen")
    return Check(
        "file watching",
        "warn",
        f"no change was reported within {WATCH_WAIT:g} s",
        "the servers will not follow edits on their own: raise the inotify limits "
        "(fs.inotify.max_user_watches) or run `symfuse index` / the reindex tool after edits",
    )


def _extras() -> Check:
    """Which optional extras of symfuse are installed."""
    try:
        meta = importlib.metadata.metadata("symfuse")
    except importlib.metadata.PackageNotFoundError:
        return Check("extras", "warn", "symfuse is not installed as a package", "pip install .")
    extras = [e for e in meta.get_all("Provides-Extra") or [] if e != "test"]
    present = [e for e in extras if _extra_installed(e)]
    missing = [e for e in extras if e not in present]
    detail = f"installed: {', '.join(present) or 'none'}"
    if missing:
        detail += f"; not installed: {', '.join(missing)} (optional)"
    return Check("extras", "ok", detail)


def _extra_installed(extra: str) -> bool:
    from packaging.requirements import Requirement

    requirements = importlib.metadata.requires("symfuse") or []
    for line in requirements:
        req = Requirement(line)
        if req.marker is None or not req.marker.evaluate({"extra": extra}):
            continue
        try:
            importlib.metadata.version(req.name)
        except importlib.metadata.PackageNotFoundError:
            return False
    return True
