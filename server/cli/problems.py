"""Files indexed in part and files left out: what ``symfuse index`` sums up and ``symfuse
problems`` lists.

A file's problems (syntax errors the parser recovered from, bytes that are not UTF-8)
are stored with it in the index's manifest, so they are read from there, whichever run
parsed the file: a re-run on an up-to-date index lists them as the first run did. Files
left out (binary, too large, unreadable, a parser that gave up) are not in the index;
every update's walk and read finds them again, and its report names them.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from symfuse.indexer.config import IndexConfig, UpdateReport
from symfuse.indexer.model import FileProblem, Skipped
from symfuse.indexer.update.workspace import refresh_index
from symfuse.server.cli.common import format_option, hold, index_config
from symfuse.server.common.output import OutputFormat, render

MAX_SHOWN = 10  # left-out files `symfuse index` names itself; `symfuse problems` names all


@dataclass(frozen=True, slots=True)
class Problems:
    """The problems stored with an index, and the files its last update left out."""

    problems: tuple[FileProblem, ...]
    skipped: tuple[Skipped, ...]

    @classmethod
    def of(cls, config: IndexConfig, report: UpdateReport) -> Problems:
        """Read from the index's manifest (written by the update that made ``report``)."""
        manifest = config.store.read_manifest()
        stored = manifest.files.items() if manifest is not None else ()
        found = [FileProblem(key, p) for key, meta in stored for p in meta.problems]
        return cls(tuple(sorted(found)), tuple(sorted(set(report.skipped))))

    @property
    def files(self) -> int:
        """How many files have problems (a file may have several)."""
        return len({p.path for p in self.problems})

    def to_dict(self) -> dict[str, Any]:
        return {
            "files_with_problems": self.files,
            "problems": [{"file": f, "problem": p} for f, p in self.problems],
            "skipped_files": [{"file": f, "reason": r} for f, r in self.skipped],
        }

    def summary(self, verbose: bool) -> list[str]:
        """``symfuse index``'s lines: how many files have problems (each with ``verbose``),
        and the files left out, named up to :data:`MAX_SHOWN`."""
        lines: list[str] = []
        if self.problems:
            lines.append(
                f"{_files(self.files)} with problems (indexed what could be read)"
                + (":" if verbose else "; symfuse problems or -v lists them")
            )
            if verbose:
                lines.extend(f"  {f}: {p}" for f, p in self.problems)
        if self.skipped:
            lines.append(f"{_files(len(self.skipped))} skipped, not indexed:")
            lines.extend(f"  {f}: {r}" for f, r in self.skipped[:MAX_SHOWN])
            if len(self.skipped) > MAX_SHOWN:
                lines.append(
                    f"  and {len(self.skipped) - MAX_SHOWN} more; symfuse problems lists them"
                )
        return lines

    def lines(self) -> list[str]:
        """``symfuse problems``'s text: one ``file: problem`` line each, the files left out
        after, marked as such."""
        return [
            *(f"{f}: {p}" for f, p in self.problems),
            *(f"{f}: skipped: {r}" for f, r in self.skipped),
        ]


def _files(count: int) -> str:
    return f"{count} file" + ("" if count == 1 else "s")


def register_problems(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    common: argparse.ArgumentParser,
    formats: Sequence[OutputFormat],
) -> None:
    p = sub.add_parser(
        "problems",
        parents=[common],
        help="list the files indexed in part or left out",
        description="Bring the index up to date, then list the files it holds only in part "
        "(syntax errors, bytes that are not UTF-8), each with its problem, and the files it "
        "left out (binary, too large, unreadable).",
    )
    p.add_argument("roots", nargs="*", metavar="ROOT", help="workspace roots (default: .)")
    format_option(p, tuple(formats), OutputFormat.TEXT)
    p.set_defaults(handler=run_problems)


def run_problems(args: argparse.Namespace) -> int:
    """``symfuse problems``: exit 0 whether or not there are any (as ``symfuse index``)."""
    config = index_config(args)
    index, report = refresh_index(config)
    hold(index)
    found = Problems.of(config, report)
    if args.output_format is OutputFormat.TEXT:
        lines = found.lines()
        if lines:
            print("\n".join(lines))
    else:
        print(render(found.to_dict(), args.output_format))
    return 0
