"""Each command's help page as a new user reads it: a short usage line, the options most
searches use first, the rest under headings, and examples at the end.

:func:`arrange` runs when a help page is printed (:class:`~.common.CommandParser`), after
every option is added, so the command modules add their options as they like.
"""

from __future__ import annotations

import argparse
import shutil
import textwrap

# Shown at the end of each command's help: what people type first.
EXAMPLES: dict[str, tuple[str, ...]] = {
    "index": ("symfuse index", "symfuse index ~/src/app --exclude 'vendor/**'", "symfuse index -v"),
    "symbols": ("symfuse symbols --kind class", "symfuse symbols --file src/app.py -f text"),
    "stats": ("symfuse stats", "symfuse stats ~/src/app -f json"),
    "languages": ("symfuse languages", "symfuse languages -f json"),
    "problems": ("symfuse problems", "symfuse problems ~/src/app -f json"),
    "search": (
        "symfuse search send                     # Client.send, send_all, ...",
        "symfuse search 'who calls send' --limit 5",
        "vim -q <(symfuse search checkout)       # the hits as a quickfix list",
        "symfuse search user --kind class --language py -f table",
    ),
    "usages": ("symfuse usages Client.send", "symfuse usages send --kinds call -f table"),
    "text": (
        "symfuse text timeout                    # smart case: Timeout, TIMEOUT too",
        "symfuse text 'def \\w+_view\\(' --regex --snippet-lines 0",
        "symfuse text TODO --code-only --file-pattern 'src/**'",
        "symfuse text FIXME >/dev/null && echo found  # exit 0: a match, 1: none, 2: an error",
    ),
    "get": ("symfuse get Client.send", "symfuse get src/client.py", "symfuse get src/client.py:42"),
    "callers": ("symfuse callers Client.send", "symfuse callers send --depth 2 -f table"),
    "callees": ("symfuse callees checkout", "symfuse callees checkout --depth 2"),
    "hierarchy": ("symfuse hierarchy BaseModel", "symfuse hierarchy Order --direction subtypes"),
    "deps": ("symfuse deps src/app.py", "symfuse deps src/app.py --depth 2 -f json"),
    "repos": ("symfuse repos", "symfuse repos --root api=~/src/api --root web=~/src/web"),
    "dead": ("symfuse dead", "symfuse dead --kind function --include-tests true"),
    "impact": ("symfuse impact Client.send", "git diff | symfuse impact --diff -"),
    "read": ("symfuse read README.md", "symfuse read src/app.py --start-line 10 --end-line 40"),
    "history": ("symfuse history 'retry timeout'", "symfuse history --author alice --limit 5"),
    "evolution": ("symfuse evolution Client.send", "symfuse evolution checkout -f json"),
    "cache": ("symfuse cache stats", "symfuse cache clear"),
    "config": ("symfuse config", "SYMFUSE_OUTPUT_FORMAT=json symfuse config"),
    "doctor": ("symfuse doctor", "symfuse doctor ~/src/app"),
    "lsp": ("symfuse lsp", "symfuse lsp --log-file /tmp/symfuse.log -v"),
    "mcp": ("symfuse mcp", "symfuse mcp --transport http --port 8765"),
    "shards": ("symfuse shards build repos/ --out shards/", "symfuse shards --help"),
    "resident": (
        "symfuse resident                        # running? how many commands it answered",
        "symfuse resident stop",
        "SYMFUSE_RESIDENT=off symfuse search send  # this command in its own process",
    ),
}

# The options a command's page lists first (by dest); its other options go under
# "more options". Commands not named here keep one list.
COMMON: dict[str, tuple[str, ...]] = {
    "search": (
        *("help", "kind", "language", "file_pattern", "exclude_path", "include_tests"),
        *("limit", "offset", "group_by", "snippet_lines", "output_format", "extra_roots"),
    ),
    "text": (
        *("help", "regex", "case_exact", "case_ignored", "case_sensitive", "fuzzy"),
        *("file_pattern", "exclude_path", "code_only", "snippet_lines", "limit", "offset"),
        *("output_format", "roots"),
    ),
}

# Options of a command that answers from repository shards on a Dask cluster.
SERVING = frozenset(
    {"shards", "shard_timeout", "route_names", "scheduler", "workers", "bind"}
    | {"tls_ca_file", "tls_cert", "tls_key"}
)


def arrange(parser: argparse.ArgumentParser, command: str) -> None:
    """Usage, option groups and examples of ``command``'s page (idempotent)."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter  # examples keep their lines
    if parser.description and "\n" not in parser.description:  # so fill it here
        width = min(shutil.get_terminal_size().columns, 100) - 2
        parser.description = textwrap.fill(parser.description, width)
    examples = EXAMPLES.get(command)
    if examples and not parser.epilog:
        parser.epilog = "examples:\n" + "\n".join(f"  {line}" for line in examples)
    positionals = [a for a in parser._actions if not a.option_strings]
    words = " ".join(_word(a) for a in positionals)
    parser.usage = f"%(prog)s {words} [options]".replace("  ", " ")
    common = COMMON.get(command)
    moved = [
        a
        for a in parser._optionals._group_actions
        if a.dest in SERVING or (common is not None and a.dest not in common)
    ]
    if not moved:
        return
    more = parser.add_argument_group("more options")
    serving = parser.add_argument_group("serving (repository shards on a Dask cluster)")
    for action in moved:
        parser._optionals._group_actions.remove(action)
        (serving if action.dest in SERVING else more)._group_actions.append(action)
    # options, then more options, then the shared workspace and logging options, then serving
    groups = parser._action_groups
    for group in (more, serving):
        groups.remove(group)
    at = groups.index(parser._optionals) + 1
    groups[at:at] = [more] if more._group_actions else []
    if serving._group_actions:
        groups.append(serving)


def _word(action: argparse.Action) -> str:
    name = str(action.metavar or action.dest)
    if action.nargs == "?":
        return f"[{name}]"
    if action.nargs == "*":
        return f"[{name} ...]"
    return name
