"""The quick editor ranking (no prepared structures) and the editor search that picks it."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.errors import InvalidRequest
from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind
from symfuse.indexer.update.live import _snapshot
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.api import prepare
from symfuse.ranking.channels.identity import MatchTier
from symfuse.ranking.channels.names import names_only as quick
from symfuse.ranking.channels.names.names_only import edit_bound, quick_search, quick_table
from symfuse.ranking.search.picker import changed_files, editor_search
from tests.support.paths import FIXTURES

WORKSPACE = FIXTURES / "workspace"


@pytest.fixture
def workspace(tmp_path: Path) -> tuple[Path, IndexConfig]:
    root = tmp_path / "ws"
    shutil.copytree(WORKSPACE, root)
    return root, IndexConfig(roots=(root,), index_dir=tmp_path / "idx", progress=False)


@pytest.fixture
def index(workspace: tuple[Path, IndexConfig]) -> Index:
    return update_index(workspace[1])[0]


def names(index: Index, query: str, limit: int = 10, **filters: object) -> list[str]:
    return [h.symbol.name for h in quick_search(index, query, limit=limit, **filters)]  # type: ignore[arg-type]


def test_name_tiers_come_first_best_tier_first(index: Index) -> None:
    hits = quick_search(index, "OrderRepository", limit=5)
    assert hits[0].symbol.name == "OrderRepository"
    assert hits[0].tier is MatchTier.EXACT
    assert hits[0].score == 1.0
    assert all(a.score >= b.score for a, b in itertools.pairwise(hits))
    assert names(index, "orderrepo")[0] == "OrderRepository"  # prefix, any case
    assert names(index, "OrdRep")[0] == "OrderRepository"  # camel humps
    assert names(index, "Ord")[0] == "Order"  # a prefix beats camel humps
    assert names(index, "or")[0] == "Order"
    # but two or three letters typed as humps mean humps (issue 37: "AC" -> AsyncClient)
    assert names(index, "OR")[0] == "OrderRepository"
    assert set(names(index, "get user by id")[:2]) == {"getUserById", "get_user_by_id"}
    assert "Repository" in names(index, "repository")[:1]  # case-insensitive exact first


def test_typos_are_found_after_name_matches(index: Index) -> None:
    hits = quick_search(index, "prcoess_payment", limit=5)
    assert hits[0].symbol.name == "process_payment"
    assert hits[0].tier is MatchTier.NONE
    assert hits[0].distance == 1
    assert 0 < hits[0].score < 1 / MatchTier.NONE  # below every name match
    # Names matching the query as typed leave no room for fuzzy ones when they fill the page.
    assert {h.tier for h in quick_search(index, "user", limit=3)} != {MatchTier.NONE}
    assert names(index, "xq") == []  # too short to look for typos


def test_a_short_query_also_lists_names_containing_it(index: Index) -> None:
    hits = quick_search(index, "q", limit=50)
    assert {h.symbol.name for h in hits} == {s.name for s in index.symbols if "q" in s.name.lower()}
    assert hits[0].symbol.name == "quantity"  # the prefix first
    assert {h.tier for h in hits[1:]} == {MatchTier.SUBSTRING}
    assert names(index, "x", kinds=[Kind.CONSTANT]) == ["MAX_ORDER_ITEMS"]


def test_edit_bound_grows_with_the_query() -> None:
    assert [edit_bound(n) for n in (3, 4, 5, 7, 8, 20)] == [1, 1, 2, 2, 3, 3]


def test_filters(index: Index) -> None:
    assert set(names(index, "user", kinds=[Kind.INTERFACE])) == {"User", "UserService"}
    assert {
        h.symbol.language for h in quick_search(index, "user", limit=20, languages=["TypeScript"])
    } == {"typescript"}
    found = quick_search(index, "", limit=50, file_pattern=["shop/utils/text.py"])
    assert {h.symbol.name for h in found} >= {"slugify", "truncate_words", "normalize_whitespace"}
    assert all(h.symbol.file.endswith("shop/utils/text.py") for h in found)
    assert quick_search(index, "", limit=50) == []  # nothing typed, nothing filtered
    assert len(quick_search(index, "", limit=3, kinds=[Kind.CLASS])) == 3
    assert (
        names(index, "prcoess_payment", kinds=[Kind.CLASS]) == []
    )  # the typo path is filtered too


def test_a_new_generation_reuses_unchanged_files(
    workspace: tuple[Path, IndexConfig], index: Index
) -> None:
    root, config = workspace
    before = quick_table(index)
    assert quick_table(index) is before  # cached per generation
    target = root / "shop" / "utils" / "text.py"
    target.write_text(target.read_text() + "\n\ndef freshly_typed():\n    pass\n")
    edited = update_index(config, index=index)[0]
    forms = quick.quick_cache(edited).forms
    kept = {k: forms[k][1] for k in forms}
    after = quick_table(edited)
    assert after is not before
    assert after.generation == edited.generation
    assert names(edited, "freshly_typed")[0] == "freshly_typed"
    changed = next(k for k in edited.files if k.endswith("shop/utils/text.py"))
    assert forms[changed][1] is not kept[changed]
    assert all(forms[k][1] is kept[k] for k in kept if k != changed)


def test_editor_search_is_quick_without_prepared_and_fused_with_it(
    workspace: tuple[Path, IndexConfig], index: Index
) -> None:
    prepared = prepare(index, workspace[1].store.directory)
    for query in ("OrderRepository", "orderrepo", "OrdRep", "prcoess_payment", "send_wel"):
        fused = editor_search(index, query, limit=5, prepared=prepared)
        fast = editor_search(index, query, limit=5, prepared=None)
        assert fused
        assert fast
        assert fused[0].name == fast[0].name, query  # the same first answer either way
    # a sentence names nothing: the quick ranking answers it from the words of names
    assert quick_search(index, "calculate the order total", limit=5) == []
    sentence = editor_search(index, "calculate the order total", limit=5, prepared=None)
    assert sentence[0].name == "calculate_total"
    listed = editor_search(index, "", limit=5, prepared=prepared, kinds=[Kind.CLASS])
    assert len(listed) == 5
    assert all(s.kind in (Kind.CLASS, Kind.STRUCT) for s in listed)  # class: structs too
    with pytest.raises(InvalidRequest):
        editor_search(index, "x" * 60_001, limit=5, prepared=prepared)


def test_after_an_edit_the_previous_structures_answer_with_the_changed_file_fresh(
    workspace: tuple[Path, IndexConfig], index: Index
) -> None:
    root, config = workspace
    previous = (index, prepare(index, config.store.directory))
    target = root / "shop" / "utils" / "text.py"
    text = target.read_text().replace("def slugify(", "def slugify_title(")
    target.write_text(text + "\n\ndef payment_slug():\n    pass\n")
    edited = update_index(config, index=_snapshot(index))[0]  # as the live server does
    assert changed_files(index, edited) == [
        next(k for k in edited.files if k.endswith("shop/utils/text.py"))
    ]

    def answer(query: str, **filters: object) -> list[str]:
        found = editor_search(edited, query, limit=10, prepared=None, previous=previous, **filters)  # type: ignore[arg-type]
        return [s.name for s in found]

    assert answer("payment_slug")[0] == "payment_slug"  # new in the edited file
    assert answer("slugify_title")[0] == "slugify_title"
    assert "slugify" not in answer("slugify")  # gone from the edited file
    assert answer("process_payment")[0] == "process_payment"  # unchanged file: fused
    # The fused part still reads docstrings (the quick ranking alone does not) ...
    fused = answer("hyphen separated url fragment")
    assert quick_search(edited, "hyphen separated url fragment", limit=10) == []
    # ... but not the edited file's old symbols: their docstrings are gone with them.
    assert "slugify" not in fused
    payment = answer("payment")
    assert "payment_slug" in payment
    # Merged by name tier: prefixes (the fused ones first), then a sub-token match.
    assert payment[:4] == ["PaymentError", "PaymentGateway", "payment_slug", "process_payment"]
    classes = answer("payment", kinds=[Kind.CLASS])
    assert classes[:2] == ["PaymentError", "PaymentGateway"]
    assert "payment_slug" not in classes  # the changed file's part is filtered too
    # Unchanged files' symbols are the objects of the new index.
    found = editor_search(edited, "process_payment", limit=1, prepared=None, previous=previous)
    assert found[0] is edited.get(found[0].symbol_id)
