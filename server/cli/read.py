"""``symfuse read PATH[:START-END]``: a text file under the roots, or a range of its lines.

Reads only what the roots hold (the path is confined as every path is), with no
index: the roots alone decide. Text output is the lines themselves, as ``cat``
or ``sed -n`` would print them; JSON and TOON add the file, range and line count.
"""

from __future__ import annotations

import argparse

from symfuse.indexer.config import root_aliases
from symfuse.indexer.index import Index
from symfuse.ranking.query import operations
from symfuse.ranking.query.operations import operation
from symfuse.ranking.query.requests import ReadRequest
from symfuse.server.cli.common import index_config
from symfuse.server.cli.options import add_request_options, request_of
from symfuse.server.common.output import OutputFormat, render

_FORMATS = (OutputFormat.TEXT, OutputFormat.JSON, OutputFormat.TOON)


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    op = operation("read")
    p = sub.add_parser(
        "read", parents=[common], help=op.summary, description=op.summary.capitalize() + "."
    )
    p.add_argument(
        "--root",
        dest="roots",
        action="append",
        default=[],
        metavar="ROOT",
        help="a workspace root (repeatable; default: .)",
    )
    p.add_argument(
        "--output-format",
        "-f",
        type=OutputFormat,
        choices=_FORMATS,
        default=OutputFormat.TEXT,
        metavar="|".join(c.value for c in _FORMATS),
        help="output format (default text: the lines alone)",
    )
    add_request_options(p, op.request, primary_required=True)
    p.set_defaults(handler=run_read, operation="read")


def run_read(args: argparse.Namespace) -> int:
    request = request_of(ReadRequest, args)
    roots = Index(root_aliases(index_config(args).roots))  # confinement needs the roots alone
    found = operations.read(roots, request)
    if args.output_format is OutputFormat.TEXT:
        print(found.content)
    else:
        print(render(found.to_dict(), args.output_format))
    return 0
