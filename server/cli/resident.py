"""A resident process that answers the query commands, so a warm query skips the imports.

A warm ``symfuse search`` spends most of its wall time importing (numpy, pydantic, the
ranking layer: about three quarters on a small repository). The first query command
run in a shell starts a resident process behind it (:mod:`symfuse.server.cli.resident_serve`);
later ones send it their words and working directory over a Unix socket and print what
it answers: the same command line, run by the same code, on the same files (each query
still checks its index against the files first). It leaves after ten idle minutes
(``SYMFUSE_RESIDENT_IDLE``, seconds), when symfuse's own files change under it (an
upgrade, an edit of an editable install), or on ``symfuse resident stop``.

``SYMFUSE_RESIDENT=off`` keeps every command in its own process; on a CI machine
(``CI`` set) a query uses a resident process that is already running but starts none.

One resident process serves one environment: its socket's name digests the interpreter,
this package's folder and the variables that change what a command does (``SYMFUSE_*``,
``XDG_*``, ``HOME``, ``PATH``, ``PYTHON*``). Its files live in ``$XDG_RUNTIME_DIR/symfuse``
(else ``<tmp>/symfuse-<uid>``), a folder only the user can enter. Two locks order
its life without waiting on a clock: ``<key>.alive`` is held for as long as it runs, and
``<key>.starting`` from before it is spawned until its socket listens.

This module is imported by every ``symfuse`` command before anything else of symfuse's:
it uses the standard library alone.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

if sys.platform != "win32":  # Unix sockets and flock: no resident process on Windows
    import fcntl

# The commands a resident process answers: they read an index and print (no server,
# no index build asked for, nothing read from stdin).
ROUTED = frozenset(
    {"search", "usages", "text", "get", "callers", "callees", "hierarchy", "deps", "repos"}
    | {"read", "dead", "impact", "history", "evolution"}
)
OFF = frozenset({"0", "off", "no", "false"})
KEYED_PREFIXES = ("SYMFUSE_", "XDG_", "PYTHON")
KEYED_NAMES = frozenset({"HOME", "PATH"})
NOT_KEYED = frozenset({"SYMFUSE_RESIDENT", "SYMFUSE_RESIDENT_IDLE"})
IDLE_SECONDS = 600.0
MAX_SOCKET_PATH = 100  # bytes; AF_UNIX allows 104-108
MAX_REPLY = 1 << 30


def routed(words: Sequence[str]) -> bool:
    """Whether ``words`` (the command line after ``symfuse``) go to a resident process."""
    if not words or words[0] not in ROUTED or not _usable():
        return False
    # stdin (`--diff -`) belongs to this process; help is sized to this terminal
    return not any(w in ("-", "-h", "--help") for w in words)


def _usable() -> bool:
    setting = os.environ.get("SYMFUSE_RESIDENT", "").strip().lower()
    return setting not in OFF and sys.platform != "win32" and hasattr(socket, "AF_UNIX")


def may_start() -> bool:
    """Whether a command may start a resident process (not on a CI machine)."""
    return _usable() and os.environ.get("CI", "").strip().lower() in ("", *OFF)


# --- where it lives --------------------------------------------------------------------


def folder() -> Path | None:
    """The user's own folder for resident processes (None when it is not safely ours)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    base = (
        Path(runtime) / "symfuse"
        if runtime
        else Path(tempfile.gettempdir()) / (f"symfuse-{os.getuid()}")
    )
    try:
        base.mkdir(mode=0o700, parents=True, exist_ok=True)
        facts = base.lstat()
    except OSError:
        return None
    private = facts.st_uid == os.getuid() and facts.st_mode & 0o077 == 0
    return base if private and not base.is_symlink() else None


def key() -> str:
    """The digest of what makes one resident process's answers this environment's."""
    env = sorted(
        (k, v)
        for k, v in os.environ.items()
        if k not in NOT_KEYED and (k in KEYED_NAMES or k.startswith(KEYED_PREFIXES))
    )
    here = os.path.dirname(os.path.abspath(__file__))
    text = json.dumps([sys.executable, here, env])
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def socket_path() -> Path | None:
    base = folder()
    if base is None:
        return None
    path = base / f"{key()}.sock"
    return path if len(os.fsencode(path)) <= MAX_SOCKET_PATH else None


@contextlib.contextmanager
def _locked(path: Path, how: int) -> Iterator[bool]:
    """``path`` locked with ``how`` (fcntl.LOCK_*); yields whether the lock was taken."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, how)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)


def _started(sock: Path) -> None:
    """Wait until a resident process being started listens, or gave up."""
    with _locked(sock.with_suffix(".starting"), fcntl.LOCK_SH):
        pass


def _gone(sock: Path) -> None:
    """Wait until the resident process of ``sock`` (if any) has ended."""
    with _locked(sock.with_suffix(".alive"), fcntl.LOCK_SH):
        pass


# --- asking ------------------------------------------------------------------------------


def exchange(sock: Path, request: dict[str, Any]) -> dict[str, Any] | None:
    """Send ``request``, return the reply (None: nobody listens, or the line broke)."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.connect(os.fspath(sock))
            conn.sendall(json.dumps(request).encode("utf-8", "surrogatepass") + b"\n")
            conn.shutdown(socket.SHUT_WR)
            data = read_all(conn)
    except OSError:
        return None
    try:
        reply = json.loads(data.decode("utf-8", "surrogatepass"))
    except ValueError:
        return None
    return reply if isinstance(reply, dict) else None


def read_all(conn: socket.socket) -> bytes:
    """Everything the other end sends until it shuts its side (at most MAX_REPLY bytes)."""
    chunks: list[bytes] = []
    size = 0
    while chunk := conn.recv(1 << 16):
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_REPLY:
            raise OSError("reply too long")
    return b"".join(chunks)


def ask(words: Sequence[str]) -> int | None:
    """Run ``words`` in the resident process: its exit code, after printing its output;
    None when no resident process answered (then the caller runs the command itself)."""
    sock = socket_path()
    try:
        request = {"argv": list(words), "cwd": os.getcwd()}
    except OSError:  # a folder removed under the shell: the command says so itself
        return None
    if sock is None:
        return None
    reply = exchange(sock, request)
    if reply is None or "code" not in reply:
        if reply is not None and reply.get("stale"):
            _gone(sock)  # it is leaving: symfuse changed under it
        return None
    sys.stdout.write(str(reply.get("out", "")))
    sys.stderr.write(str(reply.get("err", "")))
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BrokenPipeError, ValueError):
            stream.flush()
    return int(reply["code"])


# --- starting ----------------------------------------------------------------------------


def start(first: Sequence[str] = ()) -> bool:
    """Start a resident process for this environment unless one runs or is starting;
    returns at once (whether one was spawned). ``first``: the words of the command that
    starts it, whose index it loads first."""
    sock = socket_path()
    if sock is None:
        return False
    with _locked(sock.with_suffix(".alive"), fcntl.LOCK_SH | fcntl.LOCK_NB) as free:
        if not free:
            return False  # one runs
    starting = os.open(sock.with_suffix(".starting"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(starting, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False  # another command is starting one
        # The child inherits the locked descriptor and lets it go once it listens.
        command = [sys.executable, "-m", "symfuse.server.cli.resident_serve", os.fspath(sock)]
        env = {**os.environ, "SYMFUSE_RESIDENT_STARTING_FD": str(starting)}
        with contextlib.suppress(OSError):  # a removed folder: nothing to load first
            env["SYMFUSE_RESIDENT_FIRST"] = json.dumps({"argv": list(first), "cwd": os.getcwd()})
        try:
            subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                cwd="/",
                env=env,
                pass_fds=(starting,),
                start_new_session=True,
            )
        except OSError:
            return False
        return True
    finally:
        os.close(starting)


# --- the `symfuse resident` command -------------------------------------------------------


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    del common  # it reads no index
    p = sub.add_parser(
        "resident",
        help="the resident process that answers query commands (status, start, stop)",
        description=(
            "Query commands (search, usages, text, get, ...) are answered by a process that "
            "stays behind them, with its imports done and the index loaded: the first one "
            "starts it, it leaves after SYMFUSE_RESIDENT_IDLE seconds (600) without a "
            "command or when symfuse changes. SYMFUSE_RESIDENT=off: every command in its "
            "own process. On a CI machine (CI set) commands start none."
        ),
    )
    p.add_argument("action", choices=("status", "start", "stop"), nargs="?", default="status")
    p.set_defaults(handler=run_resident)


def run_resident(args: argparse.Namespace) -> int:
    if sys.platform == "win32":
        print("symfuse: error: no resident process on Windows", file=sys.stderr)
        return 1
    sock = socket_path()
    if sock is None:
        print("symfuse: error: no private folder for a resident process", file=sys.stderr)
        return 1
    if args.action == "start":
        if not _usable():
            print("symfuse: error: SYMFUSE_RESIDENT is off", file=sys.stderr)
            return 1
        start()
    if args.action in ("start", "status"):
        _started(sock)
        reply = exchange(sock, {"status": True})
        print(_status_line(reply))
        return 0 if reply is not None or args.action == "status" else 1
    reply = exchange(sock, {"stop": True})
    if reply is not None:
        _gone(sock)
    print("stopped" if reply is not None else "not running")
    return 0


def _status_line(reply: dict[str, Any] | None) -> str:
    if reply is None:
        return "not running"
    loaded = int(reply.get("indexes", 0))
    return (
        f"running: pid {reply.get('pid')}, {reply.get('answered', 0)} commands answered, "
        f"{loaded} {'index' if loaded == 1 else 'indexes'} loaded, "
        f"leaves after {reply.get('idle', 0):g} idle seconds"
    )
