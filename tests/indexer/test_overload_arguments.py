"""A call's number of arguments chooses among overloads (issue 36): ``el.text()`` where
``Element`` declares ``text(String)`` and inherits ``Node.text()`` is ``Node.text``, and
``el.text("x")`` is ``Element.text``, on a declared receiver, a chained call's result,
``this`` and the implicit receiver; in Java, C#, Kotlin, C++ and TypeScript. When no
overload takes as many parameters, linking stays as it was; when several do, each is a
guess (tests/indexer/test_csharp_builds.py)."""

from __future__ import annotations

import pytest

from symfuse.indexer.extract.tags import extract
from symfuse.indexer.index import Index
from symfuse.indexer.model import RefKind
from tests.support.index import index_of_tree, named_links

JAVA = """package shop;

class Node {
    public String text() { return ""; }
    public String attr(String key) { return ""; }
}
class Element extends Node {
    public Element text(String value) { return this; }
    public Element attr(String key, String value) { return this; }
    public String own() { return text(); }
    public Element self(String value) { return this.text(value); }
    public String inherited() { return this.attr("k"); }
}
class Page {
    public String text() { return ""; }
}
class Cleaner {
    public Element clean(Element dirty) { return dirty; }
    public String declared(Element el) { return el.text(); }
    public Element declaredOne(Element el) { return el.text("x"); }
    public String chained(Element dirty) { return clean(dirty).text(); }
    public Element chainedOne(Element dirty) { return clean(dirty).text("y"); }
    public String none(Element el) { return el.text("a", "b"); }
    public String noneChained(Element dirty) { return clean(dirty).text("a", "b"); }
}
"""
CSHARP = """namespace Shop {
public class Node { public string Text() { return ""; } }
public class Element : Node {
    public Element Text(string value) { return this; }
}
public class Page { public string Text() { return ""; } }
public class Use {
    public static string Declared(Element el) { return el.Text(); }
    public static Element DeclaredOne(Element el) { return el.Text("x"); }
}
}
"""
KOTLIN = """package shop

open class Node { fun text(): String = "" }
class Element : Node() {
    fun text(value: String): Element = this
}
class Page { fun text(): String = "" }
class Use {
    fun held(): String {
        val el = Element()
        return el.text()
    }
    fun chainedOne(): Element = Element().text("x")
    fun parameter(el: Element): String = el.text()
    fun nullable(el: Element?): Element? = el?.text("y")
    fun typed(): String {
        val page: Page = Page()
        return page.text()
    }
}
"""
CPP = """class Shape {
public:
    void scale(double factor) { scale(factor, factor); }
    void scale(double x, double y) {}
    void grow() { this->scale(2.0); }
    void stretch() { scale(2.0, 1.0); }
};
class Label {
public:
    void scale(double factor) {}
    void scale(double x, double y) {}
};
"""
TYPESCRIPT = """export class Node {
  text(): string { return ""; }
}
export class Element extends Node {
  text(value: string, strict: boolean): Element { return this; }
}
export class Page {
  text(): string { return ""; }
}
export function declared(el: Element): string {
  return el.text();
}
export function declaredTwo(el: Element): Element {
  return el.text("x", true);
}
"""


# static calls `Type.method(x)`: in the type's package, and through an import
STATIC = """package shop;

public class Parse {
    public static int number(String text) { return 0; }
    public static int number(String text, int base) { return base; }
    public static int one() { return number("1"); }
    public static int two() { return Parse.number("1", 2); }
}
class Local {
    int one() { return Parse.number("1"); }
    int two() { return Parse.number("1", 16); }
}
"""
STATIC_USE = """package app;

import shop.Parse;

class Main {
    int one() { return Parse.number("7"); }
    int two() { return Parse.number("7", 8); }
}
"""


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    files = {
        "java/shop/Nodes.java": JAVA,
        "cs/Nodes.cs": CSHARP,
        "kt/Nodes.kt": KOTLIN,
        "cpp/shape.cpp": CPP,
        "ts/nodes.ts": TYPESCRIPT,
        "java/shop/Parse.java": STATIC,
        "java/app/Main.java": STATIC_USE,
    }
    return index_of_tree(tmp_path_factory.mktemp("overloads"), files)


def links(index: Index, path: str, source: str) -> dict[str, float]:
    """What one definition's references link to, by qualified name and signature."""
    return named_links(index, path, source, signature=True)


JAVA_PATH = "java/shop/Nodes.java"
NODE_TEXT = "Node.text public String text()"
ELEMENT_TEXT = "Element.text public Element text(String value)"


@pytest.mark.parametrize(
    ("method", "target"),
    [
        ("Cleaner.declared", NODE_TEXT),  # Element's own text takes one: the inherited
        ("Cleaner.declaredOne", ELEMENT_TEXT),
        ("Cleaner.chained", NODE_TEXT),  # was Node.text and Element.text at 0.25 each
        ("Cleaner.chainedOne", ELEMENT_TEXT),
        ("Element.own", NODE_TEXT),  # the implicit receiver: was Element.text
        ("Element.self", ELEMENT_TEXT),
        ("Element.inherited", "Node.attr public String attr(String key)"),
    ],
)
def test_java_arguments_choose_the_overload(index: Index, method: str, target: str) -> None:
    found = {
        k: w for k, w in links(index, JAVA_PATH, method).items() if ".text " in k or "attr" in k
    }
    assert list(found) == [target]
    assert found[target] >= 0.8


def test_no_overload_taking_as_many_keeps_the_link_as_it_was(index: Index) -> None:
    # `el.text("a", "b")`: neither text takes two; the declared receiver's first member
    # of the name, and a chained call's equal shares, as before
    assert ELEMENT_TEXT in links(index, JAVA_PATH, "Cleaner.none")
    shares = links(index, JAVA_PATH, "Cleaner.noneChained")
    assert shares[ELEMENT_TEXT] == shares[NODE_TEXT] == 0.25


def test_csharp_and_kotlin_arguments_choose_the_overload(index: Index) -> None:
    assert "Shop.Node.Text public string Text()" in links(index, "cs/Nodes.cs", "Shop.Use.Declared")
    one = links(index, "cs/Nodes.cs", "Shop.Use.DeclaredOne")
    assert "Shop.Element.Text public Element Text(string value)" in one
    held = links(index, "kt/Nodes.kt", "Use.held")
    assert [k for k in held if ".text" in k] == ["Node.text fun text(): String"]
    chained = links(index, "kt/Nodes.kt", "Use.chainedOne")
    assert [k for k in chained if ".text" in k] == ["Element.text fun text(value: String): Element"]


@pytest.mark.parametrize(
    ("method", "target"),
    [
        ("Shape.scale", "Shape.scale void scale(double x, double y)"),  # was a guess of 4
        ("Shape.grow", "Shape.scale void scale(double factor)"),  # the first of the name: as before
        ("Shape.stretch", "Shape.scale void scale(double x, double y)"),
    ],
)
def test_cpp_arguments_choose_among_overloads_of_one_class(
    index: Index, method: str, target: str
) -> None:
    found = links(index, "cpp/shape.cpp", method)
    assert found == {target: 1.0}


def test_typescript_arguments_choose_the_inherited_method(index: Index) -> None:
    none = links(index, "ts/nodes.ts", "declared")
    two = links(index, "ts/nodes.ts", "declaredTwo")
    assert [k for k in none if ".text" in k] == ["Node.text text(): string"]
    assert [k for k in two if ".text" in k] == [
        "Element.text text(value: string, strict: boolean): Element"
    ]


@pytest.mark.parametrize(
    ("language", "source", "counts"),
    [
        ("java", 'class A { void f() { a.b(); a.c("x, y", /* z */ g(1, 2)); } }', [0, 2, 2]),
        ("csharp", "class A { void F() { a.B(); a.C<int>(1, 2, 3); } }", [0, 3]),
        ("kotlin", "fun f() { a.b(1) { it }; c() }", [2, 0]),
        ("cpp", "void f() { a.b(1); g(xs...); }", [1, -1]),
        ("typescript", "function f() { a.b(...xs); new C(1); }", [-1, 1]),
        ("python", "def f():\n    a.b(1, 2)\n", [-1]),  # not counted: no overloads
    ],
)
def test_a_call_records_how_many_arguments_it_passes(
    language: str, source: str, counts: list[int]
) -> None:
    found = extract("x", ".", language, source.encode()).references
    assert [r.args for r in found if r.kind is RefKind.CALL] == counts


NUMBER_ONE = "Parse.number public static int number(String text)"
NUMBER_TWO = "Parse.number public static int number(String text, int base)"


@pytest.mark.parametrize(
    ("path", "method", "target"),
    [
        ("java/shop/Parse.java", "Parse.two", NUMBER_TWO),  # Parse.number(...) in Parse
        ("java/shop/Parse.java", "Local.one", NUMBER_ONE),  # the type named, same package
        ("java/shop/Parse.java", "Local.two", NUMBER_TWO),
        ("java/app/Main.java", "Main.one", NUMBER_ONE),  # the type imported
        ("java/app/Main.java", "Main.two", NUMBER_TWO),
    ],
)
def test_a_static_call_s_arguments_choose_the_overload(
    index: Index, path: str, method: str, target: str
) -> None:
    found = {k: w for k, w in links(index, path, method).items() if ".number " in k}
    assert list(found) == [target]
    assert found[target] >= 0.8


@pytest.mark.parametrize(
    ("method", "target"),
    [
        ("Use.parameter", "Node.text fun text(): String"),  # a parameter's declared type
        ("Use.nullable", "Element.text fun text(value: String): Element"),
        ("Use.typed", "Page.text fun text(): String"),  # `val page: Page`
    ],
)
def test_kotlin_parameters_and_typed_variables_are_typed_receivers(
    index: Index, method: str, target: str
) -> None:
    found = {k: w for k, w in links(index, "kt/Nodes.kt", method).items() if ".text" in k}
    assert list(found) == [target]
    assert found[target] >= 0.8
