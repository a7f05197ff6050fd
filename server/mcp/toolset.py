"""Which tools a server lists: ``default`` (what agents use most), ``all``, or names.

``symfuse mcp --tools all|default|NAME,...`` chooses, or the ``SYMFUSE_MCP_TOOLS``
environment variable when the option is not given. The default set answers what agents do
most (find a definition, its usages, its source or a file's text, a text search, what a
file or a change touches) and keeps ``tools/list`` small: every listed tool's schema and
description are read into an agent's context in every session. ``default,callers`` adds
to it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from symfuse.indexer.errors import InvalidRequest

ENVIRONMENT = "SYMFUSE_MCP_TOOLS"
DEFAULT = "default"
ALL = "all"
DEFAULT_TOOLS = (
    "search",
    "find_usages",
    "get_symbol",
    "search_text",
    "read_file",
    "file_dependencies",
    "impact",
)
# Every tool, in the order a server registers them (a test holds the two together), so that
# a bad --tools is refused before a server is built.
TOOL_NAMES = (
    "search",
    "find_usages",
    "get_symbol",
    "search_text",
    "read_file",
    "callers",
    "callees",
    "file_dependencies",
    "type_hierarchy",
    "dead_code",
    "impact",
    "search_history",
    "list_repositories",
    "index_status",
    "reindex",
    "stats",
    "cache_stats",
    "cache_clear",
)


def not_listed(name: str) -> str:
    """What a call to tool ``name``, which exists but the server does not list, answers:
    how to list it."""
    return (
        f"{name} is not among this server's tools; start symfuse mcp with --tools all (or "
        f"--tools default,{name}), or set {ENVIRONMENT}=all in its environment"
    )


def requested(option: str | None, environ: Mapping[str, str] = os.environ) -> str:
    """The tool set asked for: the ``--tools`` option, else the environment, else default;
    InvalidRequest naming the option or the variable when it names an unknown tool."""
    for where, value in (("--tools", option), (ENVIRONMENT, environ.get(ENVIRONMENT))):
        if value is not None and value.strip():
            choose(value, TOOL_NAMES, where)
            return value.strip()
    return DEFAULT


def choose(spec: str, available: Sequence[str], where: str = "tools") -> tuple[str, ...]:
    """The tools ``spec`` names, in ``available``'s order; InvalidRequest naming ``where``
    and the accepted names when one is unknown."""
    wanted: set[str] = set()
    for word in (w.strip() for w in spec.split(",")):
        if not word:
            continue
        if word == ALL:
            wanted.update(available)
        elif word == DEFAULT:
            wanted.update(DEFAULT_TOOLS)
        elif word in available:
            wanted.add(word)
        else:
            raise InvalidRequest(
                where,
                f"unknown tool {word!r}; give all, default, or names from: "
                f"{', '.join(available)} (comma-separated)",
            )
    if not wanted:
        raise InvalidRequest(where, "names no tool; give all, default, or tool names")
    return tuple(name for name in available if name in wanted)
