"""What a sentence says beyond its words (issue 35, items 2 and 4): a capitalised word that
is a type's exact name puts that type first, and a file whose name and folder hold the
query's words lifts its definitions. On tests/fixtures/names_in_prose."""

from __future__ import annotations

import pytest

from symfuse.indexer.index import Index
from symfuse.ranking.api import SearchRequest
from symfuse.ranking.query import operations
from symfuse.ranking.query.responses import SearchResponse
from tests.support.index import index_of_fixture

PATH_REASON = "its file's name or folder holds the query's words"


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_fixture(tmp_path_factory.mktemp("prose"), "names_in_prose")


def answer(index: Index, query: str) -> SearchResponse:
    request = SearchRequest.from_mapping({"query": query, "limit": 5, "fusion_debug": True})
    found = operations.search(index, request)
    assert isinstance(found, SearchResponse)
    return found


def test_a_type_named_inside_a_sentence_comes_first(index: Index) -> None:
    # Value's own words are few; value_from_tokens, json_values and data_type_of say
    # "JSON", "value" and "data type" more often
    first = answer(index, "the Value data type for JSON values").items[0]
    assert (first.symbol.fqn, first.symbol.kind.value) == ("decoding.values.Value", "class")
    assert first.boost is not None


def test_a_hyphenated_capital_is_not_a_name(index: Index) -> None:
    # Retry is a class, but Retry-After is a header: the function about it leads
    first = answer(index, "wait for Retry-After before retrying").items[0]
    assert first.symbol.fqn == "decoding.values.wait_retry_after"


def test_the_first_word_of_a_sentence_is_not_a_name(index: Index) -> None:
    items = answer(index, "Value nodes built from a token stream").items
    assert items[0].symbol.fqn == "decoding.values.value_from_tokens"


def test_a_file_whose_path_holds_the_words_rises(index: Index) -> None:
    # merge() and Settings tie on their words; types/options.py holds "type" and "options"
    items = answer(index, "type definitions of the client options").items
    assert items[0].symbol.fqn == "types.options.Settings"
    lifted = {i.symbol.file for i in items if any(a.reason == PATH_REASON for a in i.adjustments)}
    assert "types/options.py" in lifted
    assert "decoding/values.py" not in lifted


def test_a_generic_type_written_with_its_arguments_is_that_type(index: Index) -> None:
    first = answer(index, "IPipelineBehavior<TRequest, TResponse>").items[0]
    assert (first.symbol.fqn, first.symbol.kind.value) == ("IPipelineBehavior", "interface")


def test_a_sentence_that_opens_with_a_code_name_is_about_it(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """MediatR's "INotification marker interface to represent a notification": the
    interface, not the methods that publish notifications (their words match more); a
    plain capitalised first word stays a word, and a label (`Name:`) opens no subject."""
    from tests.support.index import index_of_tree

    mediator = (
        "namespace Bus;\n\npublic class Mediator\n{\n"
        "    /// <summary>Publish a notification to every notification handler: represent\n"
        "    /// the notification as a marker for its handlers.</summary>\n"
        "    public void Publish(INotification notification) { }\n\n"
        "    /// <summary>Publish a notification marker to represent a notification.</summary>\n"
        "    public void PublishAll(INotification notification) { }\n}\n"
    )
    index = index_of_tree(
        tmp_path_factory.mktemp("written"),
        {
            "src/Contracts/INotification.cs": "namespace Bus;\n\n/// <summary>Marker.</summary>\n"
            "public interface INotification { }\n",
            "src/Mediator.cs": mediator,
        },
    )
    first = answer(index, "INotification marker interface to represent a notification")
    assert first.items[0].symbol.name == "INotification"
    label = answer(index, "INotification: publish a notification marker to represent it")
    assert label.items[0].symbol.name != "INotification"


def test_a_lower_case_name_before_a_kind_noun_and_a_dollar_name(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """redis's "zrangespec struct to hold a range spec" (a sentence, no code token but the
    struct's name before "struct") and zod's "$ZodCUID ..." (a first word written as a
    name, with zod's `$`) name the type; "the data type" names none."""
    from tests.support.index import index_of_tree

    index = index_of_tree(
        tmp_path_factory.mktemp("lower"),
        {
            "src/server.h": "typedef struct {\n    double min, max;\n} rangespec;\n",
            "src/t_zset.c": "/* Parse a range spec: hold the min and max of a range spec. */\n"
            "int parseRange(const char *min, const char *max, int hold) { return 0; }\n\n"
            "/* Hold a range spec to parse. */\nint holdRange(int spec) { return spec; }\n",
            "core/schemas.ts": "export interface $ZodCheck {\n  kind: string;\n}\n\n"
            "/** Check a value: run every check and report whether the value is valid. */\n"
            "export function runChecks(value: unknown): boolean {\n  return true;\n}\n",
        },
    )
    first = answer(index, "rangespec struct to hold a range spec").items[0]
    assert first.symbol.name == "rangespec"
    first = answer(index, "$ZodCheck runs a check on a value and reports whether valid").items[0]
    assert first.symbol.name == "$ZodCheck"


def test_a_first_word_just_before_a_kind_noun_names_a_type(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """chi's "Router interface" (two keywords) and got's "Options class that normalizes
    request options": a first word is capitalised anyway, but a kind noun right after it
    names the type, which leads; "Router for the mux" names none."""
    from tests.support.index import index_of_tree

    chi = (
        "package chi\n\n// NewRouter returns a new router: the mux is the router interface's\n"
        "// default implementation of the router interface.\n"
        "func NewRouter() *Mux { return NewMux() }\n\n"
        "// Router consisting of the core routing methods.\n"
        "type Router interface {\n\tRoute(pattern string) Router\n}\n"
    )
    options = (
        "/** Normalize request options: merge the options of a request with defaults. */\n"
        "export function normalizeRequestOptions(options: object): object {\n"
        "  return options;\n}\n\n"
        "export class Options {\n  merge(options: object): void {}\n}\n"
    )
    index = index_of_tree(
        tmp_path_factory.mktemp("kind_after_first"),
        {
            "chi.go": chi,
            "mux.go": "package chi\n\nfunc NewMux() *Mux { return nil }\n",
            "source/options.ts": options,
        },
    )
    first = answer(index, "Router interface").items[0].symbol
    assert (first.name, first.kind.value) == ("Router", "interface")
    first = answer(index, "Options class that normalizes request options").items[0].symbol
    assert (first.name, first.kind.value) == ("Options", "class")
    assert answer(index, "Router for the mux").items[0].symbol.kind.value != "interface"


def test_a_capitalised_name_then_what_it_is_names_the_type(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """tokio's "Task an owned handle to a spawned task", as a type's doc opens: the struct
    whose doc says so, not the methods that spawn tasks (their words match more). An
    instruction that opens with a class's name ("Extract the lhs index ...", Django's
    ``Extract`` has no such doc) stays a sentence."""
    from tests.support.index import index_of_tree

    index = index_of_tree(
        tmp_path_factory.mktemp("titled"),
        {
            "runtime/task.rs": "/// An owned handle to a spawned task.\npub struct Task {\n"
            "    id: u64,\n}\n",
            "runtime/spawn.rs": "/// Spawn a task: an owned handle to the spawned task is kept.\n"
            "pub fn spawn_task(handle: u64) -> u64 {\n    handle\n}\n\n"
            "/// Keep an owned handle to each spawned task.\n"
            "pub fn track_task(handle: u64) -> u64 {\n    handle\n}\n",
            "functions.py": "class Extract:\n    lookup_name = None\n\n\n"
            "def extract_indexes(transform, values):\n"
            '    """Extract the lhs index from the transform and the rhs index from values."""\n'
            "    return transform.lhs, values[0]\n",
        },
    )
    first = answer(index, "Task an owned handle to a spawned task").items[0]
    assert (first.symbol.name, first.symbol.kind.value) == ("Task", "struct")
    first = answer(index, "Extract the lhs index from the transform and the rhs index").items[0]
    assert first.symbol.name == "extract_indexes"
