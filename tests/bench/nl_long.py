"""Long queries from git history: whole commit messages (issue 35, item 6).

A bug report, a stack trace or a long description is a query too. This set takes the
commits nl_mine.py kept (``data/nl_mined.json``: the definitions each commit changed are
the expected answers) whose message has a body of at least :data:`MIN_BODY` characters,
and makes the whole message the query: subject, body, code, identifiers, paths and
frame lines as written; only trailers (``Signed-off-by:``, ``Co-authored-by:`` ...) are
dropped. The subject set strips identifiers (they would give the answer away); a long
message keeps them, as a bug report keeps the names in its traceback, so this set asks
whether the names and rare words of a long text lead, and whether a long query ranks at
least as well as a plain BM25 over function bodies (nl_bench.py's baseline).

    python tests/bench/nl_long.py                         # writes data/nl_long.json
    python tests/bench/nl_bench.py --data tests/bench/data/nl_long.json
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from nl_corpus import BY_NAME, DATA, DEFAULT_MIRRORS

LONG_DATA = DATA.with_name("nl_long.json")
MIN_BODY = 200  # characters of message past the subject
_TRAILER = re.compile(
    r"^(signed-off-by|co-authored-by|reviewed-by|acked-by|tested-by|reported-by|"
    r"change-id|cc):.*$",
    re.I | re.M,
)


def message(git_dir: Path, commit: str) -> str:
    """The commit's whole message, trailers dropped."""
    out = subprocess.run(
        ["git", "--git-dir", str(git_dir), "log", "-1", "--format=%B", commit],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return _TRAILER.sub("", out).strip()


def long_queries(mirrors: Path, min_body: int) -> dict[str, Any]:
    """nl_mined.json's repositories and, for each kept commit with a long body, a query
    that is its whole message (the expected answers unchanged)."""
    mined = json.loads(DATA.read_text(encoding="utf-8"))
    queries = []
    for q in mined["queries"]:
        text = message(BY_NAME[q["repo"]].mirror(mirrors), q["commit"])
        subject, _, body = text.partition("\n")
        if len(body.strip()) >= min_body:
            queries.append({**q, "query": text, "subject": subject})
    return {
        "note": f"whole commit messages (bodies of {min_body}+ characters) of the commits in "
        f"{DATA.name}, by tests/bench/nl_long.py; expected answers as mined there",
        "repos": mined["repos"],
        "queries": queries,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirrors", type=Path, default=DEFAULT_MIRRORS)
    parser.add_argument("--min-body", type=int, default=MIN_BODY)
    parser.add_argument("--out", type=Path, default=LONG_DATA)
    args = parser.parse_args(argv)
    payload = long_queries(args.mirrors, args.min_body)
    text = json.dumps(payload, indent=1, ensure_ascii=False) + "\n"
    args.out.write_text(text, encoding="utf-8")
    counts: dict[str, int] = {}
    for q in payload["queries"]:
        counts[q["repo"]] = counts.get(q["repo"], 0) + 1
    print(f"{len(payload['queries'])} long queries written to {args.out}: {counts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
