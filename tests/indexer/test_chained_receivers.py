"""A chained call's receiver is what the call before it returns (issue 36): Java, C# and
Kotlin. ``cleaner.clean(dirty).title()`` with ``Document clean(...)`` is Document.title,
not a guess among every ``title``; so is ``var doc = cleaner.clean(dirty); doc.title()``.
A generic or type-parameter return type says nothing; an outside one (``String``) says
that none of the workspace's members is called; the number of arguments chooses among
overloads."""

from __future__ import annotations

import pytest

from symfuse.indexer.index import Index
from symfuse.indexer.link.chained import called, parameter_count
from symfuse.indexer.link.receivers import Declaration
from symfuse.indexer.model import Kind, Symbol
from tests.support.index import index_of_tree, named_links

JAVA = """package shop;

import java.util.List;

public class Cleaner {
    public Document clean(Element dirty) { return new Document(); }
    public <T extends Element> T first(List<T> all) { return all.get(0); }
    public List<Document> all() { return null; }
    public String name() { return "cleaner"; }

    public String chained(Cleaner cleaner, Element dirty) {
        return cleaner.clean(dirty).title();
    }
    public String held(Cleaner cleaner, Element dirty) {
        var doc = cleaner.clean(dirty);
        return doc.title();
    }
    public String constructed(Element dirty) {
        return new Cleaner().clean(dirty).title();
    }
    public String typeParameter(List<Element> all) {
        return first(all).title();
    }
    public String generic() {
        return all().get(0).title();
    }
    public boolean outside() {
        return name().trim().isEmpty();
    }
    public String overloaded(Element dirty) {
        return clean(dirty).text();
    }
    public String declared(Document doc) {
        return doc.childNodes();
    }
}
"""
# namesakes: a guess by name would split between them
NODES = """package shop;

class Element {
    public String title() { return ""; }
    public String text() { return ""; }
    public String childNodes() { return ""; }
}
class Document extends Element {
    String childNodes;
    public String title() { return "doc"; }
    public String text(String fallback) { return fallback; }
}
class Feed {
    public String title() { return "feed"; }
    public String trim() { return ""; }
    public boolean isEmpty() { return true; }
}
"""
CSHARP = """namespace Shop {
public class Cleaner {
    public Document Clean(Element dirty) { return new Document(); }
    public static string Chained(Cleaner cleaner, Element dirty) {
        return cleaner.Clean(dirty).Title();
    }
    public static string Held(Cleaner cleaner, Element dirty) {
        var doc = cleaner.Clean(dirty);
        return doc.Title();
    }
}
public class Element {}
public class Document : Element { public string Title() { return ""; } }
public class Feed { public string Title() { return ""; } }
}
"""
KOTLIN = """package shop

class Cleaner {
    fun clean(dirty: Page): Report { return Report() }
    fun chained(dirty: Page): String {
        return this.clean(dirty).summary()
    }
    fun held(dirty: Page): String {
        val report = clean(dirty)
        return report.summary()
    }
}
open class Page
class Report { fun summary(): String = "" }
class Digest { fun summary(): String = "" }
"""


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    files = {
        "java/shop/Cleaner.java": JAVA,
        "java/shop/Nodes.java": NODES,
        "cs/Cleaner.cs": CSHARP,
        "kt/Cleaner.kt": KOTLIN,
    }
    return index_of_tree(tmp_path_factory.mktemp("chained"), files)


def links(index: Index, path: str, source: str) -> dict[str, float]:
    """What one definition's references link to, by qualified name."""
    return named_links(index, path, source)


JAVA_PATH = "java/shop/Cleaner.java"


@pytest.mark.parametrize("method", ["chained", "held", "constructed"])
def test_a_java_call_on_what_a_call_returns_is_a_member_of_its_type(
    index: Index, method: str
) -> None:
    found = links(index, JAVA_PATH, f"Cleaner.{method}")
    assert found["Document.title"] >= 0.8  # a same-package type by its name: 0.8
    assert "Element.title" not in found  # Document's own, not the one it overrides
    assert "Feed.title" not in found


def test_a_generic_return_type_says_no_type(index: Index) -> None:
    # `T first(...)`, `List<Document> all()`: still a guess among the three titles
    for method in ("typeParameter", "generic"):
        found = links(index, JAVA_PATH, f"Cleaner.{method}")
        assert found.get("Feed.title", 0.0) < 0.5, method
        assert found.get("Document.title", 0.0) < 0.5, method


def test_an_outside_return_type_calls_none_of_the_workspace_members(index: Index) -> None:
    # `name()` returns String: its trim() is not Feed.trim; what an outside method
    # returns is not known, so `isEmpty()` on it stays a guess by name
    found = links(index, JAVA_PATH, "Cleaner.outside")
    assert "Feed.trim" not in found
    assert found["Feed.isEmpty"] == 0.8
    assert found["Cleaner.name"] == 1.0


def test_the_arguments_choose_among_overloads(index: Index) -> None:
    # `clean(dirty).text()`: not Document.text(String) but the inherited Element.text()
    # (before the calls' arguments were recorded: either, at 0.25; test_overload_arguments)
    found = links(index, JAVA_PATH, "Cleaner.overloaded")
    assert found["Element.text"] >= 0.8
    assert "Document.text" not in found


def test_a_call_on_a_declared_variable_is_a_method_not_a_same_named_field(
    index: Index,
) -> None:
    # `Document doc; doc.childNodes()`: the inherited method, not Document's field
    found = links(index, JAVA_PATH, "Cleaner.declared")
    assert found["Element.childNodes"] >= 0.8
    assert "Document.childNodes" not in found


@pytest.mark.parametrize("method", ["Chained", "Held"])
def test_csharp_calls_on_what_a_call_returns(index: Index, method: str) -> None:
    found = links(index, "cs/Cleaner.cs", f"Shop.Cleaner.{method}")
    assert found["Shop.Document.Title"] >= 0.8
    assert "Shop.Feed.Title" not in found


@pytest.mark.parametrize("method", ["chained", "held"])
def test_kotlin_calls_on_what_a_call_returns(index: Index, method: str) -> None:
    found = links(index, "kt/Cleaner.kt", f"Cleaner.{method}")
    assert found["Report.summary"] >= 0.8
    assert "Digest.summary" not in found


@pytest.mark.parametrize(
    ("qualifier", "declared"),
    [
        ("cleaner.clean(dirty)", Declaration("clean", "cleaner", True)),
        ('a.b(")", x.y()).c(1)', Declaration("c", 'a.b(")", x.y())', True)),
        ("new org.shop.Element(tag)", Declaration("Element", "org.shop", False)),
        ("new Cleaner().clean(d)", Declaration("clean", "new Cleaner()", True)),
        ("items.Select<Item>(f)", Declaration("Select", "items", True)),
        ("page?.find(x)", Declaration("find", "page", True)),
        ("b\n    .c()", Declaration("c", "b", True)),
        ("cleaner", None),
        ("(a + b)", None),
        ("a.b(x).c", None),
    ],
)
def test_the_call_a_qualifier_ends_with(qualifier: str, declared: Declaration | None) -> None:
    assert called(qualifier) == declared


@pytest.mark.parametrize(
    ("signature", "count"),
    [
        ("public String text()", 0),
        ("public String text(String fallback)", 1),
        ("public Map<K, V> text(Map<String, Node> a, int b)", 2),
        ("public String text(String... parts)", None),
        ("public string Text(int a = 0)", None),
    ],
)
def test_parameter_count(signature: str, count: int | None) -> None:
    name = "Text" if " Text(" in signature else "text"
    place = dict.fromkeys(("line", "col", "end_line", "end_col"), 1)
    names = dict.fromkeys(("name_line", "name_col", "name_end_line", "name_end_col"), 1)
    method = Symbol(
        f"x::{name}", name, Kind.METHOD, name, signature, "java", "x", ".", **place, **names
    )
    assert parameter_count(method) == count
