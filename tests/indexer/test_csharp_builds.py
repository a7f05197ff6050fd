"""C# as Newtonsoft.Json writes it: ``#if`` where the grammar cannot place it (a base
list, an expression) parsed as one build of the file; extension methods called on
values of outside types; overloads that take as many arguments as the call passes."""

from __future__ import annotations

import pytest

from symfuse.indexer.extract import conditionals
from symfuse.indexer.extract.tags import extract
from symfuse.indexer.files import languages
from symfuse.indexer.index import Index
from symfuse.indexer.update.buffer_trees import BufferTrees
from tests.support.index import index_of_tree, named_links

# a conditional base in the class's head, a conditional operand in a condition
VALUE = """namespace Demo
{
    public partial class JValue : JToken, IComparable
#if HAVE_ICONVERTIBLE
        , IConvertible
#endif
    {
        public void Set(int value)
        {
            if (value < 0 ||
#if HAVE_BIG
                value > 100
#else
                value > 10
#endif
                )
            {
                Reset();
            }
        }

        public void Reset() { }

        bool IConvertible.ToBoolean(IFormatProvider provider) { return true; }
    }
}
"""
VALUE_ASYNC = """namespace Demo
{
    public partial class JValue
    {
        public void SetAsync(int value) { Set(value); }
    }


    public class JRaw : JValue { }
}
"""
UTILS = """namespace Demo.Utilities
{
    internal static class CollectionUtils
    {
        public static bool ContainsValue<T>(this IEnumerable<T> source, T value) { return false; }
        public static bool AddRangeDistinct<T>(this IList<T> list, IEnumerable<T> values)
        {
            return true;
        }
        internal static Task<bool> ToAsync(this bool value) => null;
        public static int Max(this IEnumerable<int> source) { return 0; }
        public static void Shift(this JToken token) { }
    }
}
"""
MODEL = """namespace Demo
{
    public class Model
    {
        public IList<string> Items { get; set; }

        public bool Read() { return true; }

        public void Merge(Model other, IList<string> list)
        {
            Items.AddRangeDistinct(other.Items);
            other.Items.AddRangeDistinct(list);
            if (list.ContainsValue("x")) { }
            var done = Read().ToAsync();
            var most = Math.Max(1, 2);
            list.Shift();
        }
    }
}
"""
# a field a base class declares in another file, a call reached through `?.` on a cast
BASE = """namespace Demo
{
    internal abstract class InternalBase
    {
        internal readonly JsonSerializer Serializer;
    }
}
"""
READER = """namespace Demo
{
    internal class InternalReader : InternalBase
    {
        public void Read(Type t, JToken parent)
        {
            Serializer.GetMatchingConverter(t);
            ((JsonSerializer?)parent)?.Changed(this);
        }
    }
}
"""
SERIALIZER = """namespace Demo
{
    public class JsonSerializer
    {
        internal JsonConverter GetMatchingConverter(Type type) { return null; }
        internal static JsonConverter GetMatchingConverter(IList<JsonConverter> c, Type t)
        {
            return null;
        }
        internal void Changed(object sender) { }
    }
}
"""
WRITER = """namespace Demo
{
    public class BsonWriter
    {
        private int CalculateSize(int count) { return count; }
        private int CalculateSize(JToken token) { return CalculateSize(1); }
        private int CalculateSize(int count, bool prefixed) { return count; }

        public int Measure(JToken token) { return CalculateSize(token); }
        public int Prefixed() { return CalculateSize(1, true); }
    }
}
"""


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    files = {
        "src/JValue.cs": VALUE,
        "src/JValue.Async.cs": VALUE_ASYNC,
        "src/JToken.Async.cs": "namespace Demo\n{\n    public partial class JToken { }\n}\n",
        "src/JToken.cs": "namespace Demo\n{\n    public partial class JToken { }\n}\n",
        "src/Utils.cs": UTILS,
        "src/Model.cs": MODEL,
        "src/BsonWriter.cs": WRITER,
        "src/Base.cs": BASE,
        "src/Reader.cs": READER,
        "src/JsonSerializer.cs": SERIALIZER,
    }
    return index_of_tree(tmp_path_factory.mktemp("csharp"), files)


def test_a_conditional_base_leaves_the_class_whole() -> None:
    # the grammar closed the class at the `#if` and left its members to the namespace
    found = extract("src/JValue.cs", ".", "csharp", VALUE.encode())
    names = {s.fqn for s in found.symbols}
    assert {"Demo.JValue.Set", "Demo.JValue.Reset", "Demo.JValue.ToBoolean"} <= names
    assert found.problems == []
    value = next(s for s in found.symbols if s.fqn == "Demo.JValue")
    assert "IConvertible" in value.implements
    # the head's directive lines are no part of the signature an answer shows
    assert value.signature == "public partial class JValue : JToken, IComparable , IConvertible"


def test_the_first_branch_is_read_when_every_branch_would_not_parse() -> None:
    # both operands kept (`value > 100 value > 10`) do not parse; the first alone does
    source = VALUE.encode()
    parser = languages.parser("csharp")
    assert conditionals.error_nodes(parser.parse(conditionals.every_branch(source))) > 0
    first = conditionals.first_branches(source)
    assert conditionals.error_nodes(parser.parse(first)) == 0
    assert len(first) == len(source)
    assert first.count(b"\n") == source.count(b"\n")
    assert b"value > 100" in first
    assert b"value > 10\n" not in first


def test_a_clean_file_keeps_its_every_branch() -> None:
    # `#if` between members parses as written: both branches' methods are indexed
    source = b"class A {\n#if NET\n  void F() { }\n#else\n  void G() { }\n#endif\n}\n"
    found = extract("a.cs", ".", "csharp", source)
    assert {s.name for s in found.symbols} >= {"F", "G"}


def test_an_editor_buffer_of_such_a_file_is_parsed_whole() -> None:
    # the buffer's own tree has the errors: it is not kept, the full parse mends them
    assert BufferTrees().parse("src/JValue.cs", "csharp", VALUE.encode()) is None


def test_a_call_inside_the_mended_class_links(index: Index) -> None:
    assert "Demo.JValue.Reset" in named_links(index, "src/JValue.cs", "Demo.JValue.Set")


@pytest.mark.parametrize(
    ("target", "weight"),
    [
        ("Demo.Utilities.CollectionUtils.AddRangeDistinct", 1.0),  # `Items`: a property
        ("Demo.Utilities.CollectionUtils.ContainsValue", 0.5),  # IList, not IEnumerable
        ("Demo.Utilities.CollectionUtils.ToAsync", 0.5),  # what `Read()` returns
    ],
)
def test_extension_methods_on_values_of_outside_types(
    index: Index, target: str, weight: float
) -> None:
    found = named_links(index, "src/Model.cs", "Demo.Model.Merge")
    assert found[target] == weight


def test_no_extension_for_an_outside_class_or_a_workspace_type(index: Index) -> None:
    found = named_links(index, "src/Model.cs", "Demo.Model.Merge")
    assert "Demo.Utilities.CollectionUtils.Max" not in found  # `Math.Max(1, 2)`
    assert "Demo.Utilities.CollectionUtils.Shift" not in found  # extends a JToken


def test_overloads_taking_as_many_arguments_are_each_a_guess(index: Index) -> None:
    # the types would choose, which the index does not know: half sure in all, as a
    # guess among same-named definitions is
    found = named_links(index, "src/BsonWriter.cs", "Demo.BsonWriter.Measure", signature=True)
    assert {k: w for k, w in found.items() if "CalculateSize" in k} == {
        "Demo.BsonWriter.CalculateSize private int CalculateSize(int count)": 0.25,
        "Demo.BsonWriter.CalculateSize private int CalculateSize(JToken token)": 0.25,
    }


def test_an_overload_the_count_names_stays_sure(index: Index) -> None:
    found = named_links(index, "src/BsonWriter.cs", "Demo.BsonWriter.Prefixed", signature=True)
    assert found == {
        "Demo.BsonWriter.CalculateSize private int CalculateSize(int count, bool prefixed)": 1.0
    }


@pytest.mark.parametrize("part", ["src/JValue.cs", "src/JValue.Async.cs"])
def test_a_partial_class_s_hierarchy_is_every_part_s(index: Index, part: str) -> None:
    from symfuse.ranking.query import operations
    from symfuse.ranking.query.requests import HierarchyRequest

    found = operations.hierarchy(index, HierarchyRequest(target=f"{part}::Demo.JValue#class"))
    assert found.root.symbol_id == "src/JValue.cs::Demo.JValue#class"  # the file named so
    bases = sorted(link.name for link in found.supertypes)
    assert bases == ["IComparable", "IConvertible", "JToken"]
    token = next(link.symbol for link in found.supertypes if link.name == "JToken")
    assert token is not None
    assert token.file == "src/JToken.cs"  # of its two parts, the file named after it
    assert [link.name for link in found.subtypes] == ["JRaw"]


def test_a_field_a_base_declares_elsewhere_says_its_type(index: Index) -> None:
    found = named_links(index, "src/Reader.cs", "Demo.InternalReader.Read", signature=True)
    calls = {k: w for k, w in found.items() if "GetMatchingConverter" in k or "Changed" in k}
    assert sorted(calls) == [
        "Demo.JsonSerializer.Changed internal void Changed(object sender)",  # `?.`
        "Demo.JsonSerializer.GetMatchingConverter"
        " internal JsonConverter GetMatchingConverter(Type type)",  # the one-parameter one
    ]
    assert min(calls.values()) >= 0.8  # the field's type is a name the index finds once


def test_an_explicit_interface_member_is_not_dead(index: Index) -> None:
    from symfuse.ranking.query import operations
    from symfuse.ranking.query.analysis_requests import DeadCodeRequest

    found = operations.dead(index, DeadCodeRequest(min_confidence=0.0, limit=500))
    names = {d.symbol.fqn for d in found.items}
    assert "Demo.JValue.ToBoolean" not in names  # `bool IConvertible.ToBoolean(...)`
    assert "Demo.JValue.SetAsync" in names  # a public method nothing calls, still listed


def test_a_directive_at_the_end_without_a_newline_is_no_syntax_error() -> None:
    # the grammar flags the tree for a token it never shows: nothing is lost
    source = b"class A\n{\n    void F() { }\n}\n#pragma warning restore 618"
    found = extract("a.cs", ".", "csharp", source)
    assert found.problems == []
    assert [s.name for s in found.symbols] == ["A", "F"]
    broken = extract("b.cs", ".", "csharp", b"class B { void F() {")
    assert broken.problems  # a real error is still reported
