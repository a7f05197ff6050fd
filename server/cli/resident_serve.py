"""The resident process itself: it runs the query commands sent to its socket.

Started by :func:`symfuse.server.cli.resident.start` as ``python -m
symfuse.server.cli.resident_serve SOCKET``. It takes the ``.alive`` lock (or leaves: one
runs already), imports the command line, listens, then lets the ``.starting`` lock go.
One command at a time, each as the console script would run it
(:func:`symfuse.server.cli.main.main` with the words), in the caller's working
directory, its stdout and stderr kept and sent back with the exit code.

It leaves after ``SYMFUSE_RESIDENT_IDLE`` seconds without a command (600 by default),
on a ``stop`` request, or when a file of symfuse's own changed since it started: that
request is answered ``stale`` and the caller runs the command itself.
"""

from __future__ import annotations

import contextlib
import fcntl
import gc
import io
import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

from symfuse.server.cli.resident import IDLE_SECONDS, read_all


def main(argv: list[str]) -> int:
    sock = Path(argv[0])
    alive = os.open(sock.with_suffix(".alive"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(alive, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return 0  # one runs already
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # a query does no BLAS work
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    server = _listen(sock)
    _imported()
    code = Code()
    _started()
    _preload()
    try:
        return Resident(server, code, _idle()).serve()
    finally:
        server.close()
        with contextlib.suppress(OSError):
            sock.unlink()


def _listen(sock: Path) -> socket.socket:
    with contextlib.suppress(FileNotFoundError):
        sock.unlink()  # a socket left by a process that died: the alive lock was free
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(os.fspath(sock))
    os.chmod(sock, 0o600)
    server.listen(16)
    return server


def _imported() -> None:
    """The modules of every routed command, loaded before the first caller waits."""
    from symfuse.server.cli import main as cli_main
    from symfuse.server.cli import query, search  # noqa: F401
    from symfuse.server.cli.index import keep_indexes

    cli_main.build_parser("search")
    keep_indexes()


def _started() -> None:
    """Let the ``.starting`` lock go: callers waiting on it may ask now."""
    fd = os.environ.pop("SYMFUSE_RESIDENT_STARTING_FD", "")
    if fd.isdigit():
        with contextlib.suppress(OSError):
            os.close(int(fd))


def _preload() -> None:
    """The index of the command that started this process (and its ranking structures)
    loaded before the next command is taken: on a large repository that command would
    wait for the load. Only an index already built: the starting command may be building
    it in its own process. Any problem is that command's to report."""
    text = os.environ.pop("SYMFUSE_RESIDENT_FIRST", "")
    try:
        first = json.loads(text) if text else None
        if isinstance(first, dict):
            os.chdir(str(first["cwd"]))
            _load([str(word) for word in first["argv"]])
    except (Exception, SystemExit):  # bad usage exits in argparse
        return


def _load(words: list[str]) -> None:
    from symfuse.ranking.api import prepare
    from symfuse.server.cli.common import index_config
    from symfuse.server.cli.index import fresh_index
    from symfuse.server.cli.main import parsed

    args, error = parsed(words)
    if error is not None or getattr(args, "shards", None) is not None:
        return
    if args.command == "search":  # as run_search reads its roots
        args.roots = [*args.roots, *args.extra_roots]
    config = index_config(args)
    if config.store.read_manifest() is None:
        return
    index, _ = fresh_index(args)
    prepare(index, config.store.directory)


def _idle() -> float:
    text = os.environ.get("SYMFUSE_RESIDENT_IDLE", "")
    try:
        return max(1.0, float(text)) if text.strip() else IDLE_SECONDS
    except ValueError:
        return IDLE_SECONDS


class Code:
    """symfuse's own files as they were when the process started (size, mtime)."""

    def __init__(self) -> None:
        self.files = {path: self._stamp(path) for path in self._paths()}

    @staticmethod
    def _paths() -> list[str]:
        return sorted(
            path
            for name, module in list(sys.modules.items())
            if name.startswith("symfuse") and (path := getattr(module, "__file__", None))
        )

    @staticmethod
    def _stamp(path: str) -> tuple[int, int] | None:
        try:
            facts = os.stat(path)
        except OSError:
            return None
        return facts.st_size, facts.st_mtime_ns

    def changed(self) -> bool:
        return any(self._stamp(path) != stamp for path, stamp in self.files.items())

    def note_new(self) -> None:
        """Stamp the modules a command imported first (a graph question's, say)."""
        for path in self._paths():
            if path not in self.files:
                self.files[path] = self._stamp(path)


class Resident:
    """The accept loop: one caller at a time."""

    def __init__(self, server: socket.socket, code: Code, idle: float) -> None:
        self.server, self.code, self.idle = server, code, idle
        self.answered = 0
        self.server.settimeout(idle)

    def serve(self) -> int:
        while True:
            try:
                conn, _ = self.server.accept()
            except TimeoutError:
                return 0
            with conn:
                conn.settimeout(None)
                try:
                    request = json.loads(read_all(conn).decode("utf-8", "surrogatepass"))
                except (OSError, ValueError):
                    continue
                reply, leave = self.answer(request if isinstance(request, dict) else {})
                with contextlib.suppress(OSError):
                    conn.sendall(json.dumps(reply).encode("utf-8", "surrogatepass"))
            if leave:
                return 0
            _tidy()

    def answer(self, request: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        """The reply, and whether to leave after sending it."""
        if request.get("stop"):
            return {"stopped": True}, True
        if request.get("status"):
            from symfuse.server.cli.index import kept_indexes

            facts = {"pid": os.getpid(), "answered": self.answered, "idle": self.idle}
            return {**facts, "indexes": kept_indexes()}, False
        if self.code.changed():
            return {"stale": True}, True
        argv, cwd = request.get("argv"), request.get("cwd")
        if not isinstance(argv, list) or not isinstance(cwd, str):
            return {"refused": "bad request"}, False
        try:
            os.chdir(cwd)
        except OSError:
            return {"refused": "no such folder"}, False
        self.answered += 1
        reply = run([str(word) for word in argv])
        self.code.note_new()
        return reply, False


def run(argv: list[str]) -> dict[str, Any]:
    """``symfuse ARGV`` in this process: its exit code, stdout and stderr."""
    from symfuse.server.cli.main import main as cli_main

    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = cli_main(argv)
    except SystemExit as exc:  # argparse: bad usage (2)
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if isinstance(exc.code, str):
            print(exc.code, file=err)
    except Exception as exc:  # the caller's command failed, not this process
        print(f"symfuse: error: {type(exc).__name__}: {exc}", file=err)
        code = 1
    finally:
        sys.stdout, sys.stderr = saved
    return {"code": code, "out": out.getvalue(), "err": err.getvalue()}


def _tidy() -> None:
    """After a command: the collector on again (main() turns it off for a one-shot
    command), its garbage collected and the free pages given back."""
    gc.enable()
    gc.collect()
    from symfuse.server.common.heap import give_back

    give_back()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
