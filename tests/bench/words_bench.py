"""Words that spell a name: lower-case words whose join is an existing name (issue 35 item 5).

Queries derived from the golden exact sets (fixture and Django): each exact name with 2-4
sub-tokens, all letters, becomes its lower-cased sub-tokens joined by spaces
("get_dated_items" -> "get dated items"). hit@1 / hit@3: an answer among the first k has
that name. Django is read from tests/bench/.corpus/search/ (quality_bench.py downloads it).

    python tests/bench/words_bench.py
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.api import SearchRequest, search
from symfuse.ranking.channels.tokens import split_identifier

TESTS = Path(__file__).resolve().parents[1]


def queries(corpus: str) -> list[tuple[str, str]]:
    data = json.loads((TESTS / f"golden_queries_{corpus}.json").read_text())
    out = []
    for q in data["queries"]:
        if q["category"] != "exact":
            continue
        parts = [p.lower() for p in split_identifier(q["name"]) if p]
        if 2 <= len(parts) <= 4 and all(p.isalpha() for p in parts):
            out.append((" ".join(parts), q["name"]))
    return out


def main() -> None:
    roots = {"fixture": TESTS / "fixtures" / "workspace"}
    django = sorted((TESTS / "bench" / ".corpus" / "search").glob("django-5.2*/django"))
    if django:
        roots["django"] = django[0].parent
    for corpus, root in roots.items():
        with tempfile.TemporaryDirectory() as tmp:
            index, _ = update_index(IndexConfig(roots=(root,), index_dir=Path(tmp), progress=False))
            qs = queries(corpus)
            h1 = h3 = 0
            for text, name in qs:
                got = [
                    i.symbol.name for i in search(index, SearchRequest(query=text, limit=10)).items
                ]
                h1 += bool(got[:1] == [name])
                h3 += name in got[:3]
            print(
                f"{corpus}: {len(qs)} queries, hit@1 {h1 / len(qs):.3f}, hit@3 {h3 / len(qs):.3f}"
            )


if __name__ == "__main__":
    main()
