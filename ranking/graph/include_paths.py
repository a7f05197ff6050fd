"""The folders a C or C++ build searches for ``#include`` files, as workspace folders:
the ``-I`` / ``-isystem`` / ``-iquote`` directories of a ``compile_commands.json`` (at a
root, or in its ``build/``), then every folder named ``include``. Read once per import
graph; a directory outside the workspace roots is no folder of ours.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from symfuse.indexer.index import Index

_FLAGS = ("-I", "-isystem", "-iquote", "-idirafter")
_DATABASES = ("compile_commands.json", "build/compile_commands.json")


def include_dirs(index: Index, folders: set[str]) -> list[str]:
    """The include folders (workspace keys of folders, ``""`` for a root), in search
    order; ``folders``: the folders of the index's files."""
    found: list[str] = []
    for alias, root in index.roots.items():
        for database in _DATABASES:
            for directory in _database_dirs(Path(root) / database):
                key = _folder_key(index, alias, Path(root), directory)
                if key is not None and key not in found:
                    found.append(key)
    named = set()
    for folder in folders:  # `include/` itself may hold only folders (include/jv/jv.h)
        parts = folder.split("/")
        named |= {"/".join(parts[: at + 1]) for at, p in enumerate(parts) if p == "include"}
    found += sorted(named - set(found))
    return found


def _database_dirs(database: Path) -> list[Path]:
    """The include directories the compile commands name, made absolute."""
    try:
        commands = json.loads(database.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    found: list[Path] = []
    for command in commands if isinstance(commands, list) else []:
        if not isinstance(command, dict):
            continue
        base = database.parent / str(command.get("directory", "."))
        words = command.get("arguments")
        if not isinstance(words, list):
            try:
                words = shlex.split(str(command.get("command", "")))
            except ValueError:
                continue
        found += [(base / d).resolve() for d in _flag_values([str(w) for w in words])]
    return found


def _flag_values(words: list[str]) -> list[str]:
    """``-Iinclude``, ``-I include``, ``-isystem third/inc``: the directories."""
    values = []
    for at, word in enumerate(words):
        for flag in _FLAGS:
            if word == flag and at + 1 < len(words):
                values.append(words[at + 1])
            elif word.startswith(flag) and len(word) > len(flag) and flag == "-I":
                values.append(word[len(flag) :])
    return values


def _folder_key(index: Index, alias: str, root: Path, directory: Path) -> str | None:
    try:
        rel = directory.relative_to(root.resolve()).as_posix()
    except ValueError:
        return None
    return index.key(alias, "" if rel == "." else rel).rstrip("/")
