"""Go's package scope (issue 36): a bare name stands for the package-level definition
in any file of its folder, at full confidence; a package's same-named definitions in
files of alternative builds (``//go:build !nomsgpack`` / ``nomsgpack``) are one
declaration, each a full-confidence target, bare or through the package's import."""

from __future__ import annotations

import pytest

from symfuse.indexer.index import Index
from tests.support.index import index_of_tree, links

FILES = {
    "go.mod": "module example.com/shop\n\ngo 1.21\n",
    "cart/cart.go": "package cart\n\nfunc Total() int {\n\treturn add(1, 2)\n}\n",
    "cart/math.go": (
        "package cart\n\nfunc add(a, b int) int {\n\treturn a + b\n}\n\n"
        "var _ = add(0, 0) // the blank identifier: a definition of nothing\n"
    ),
    "cart/cart_test.go": (
        'package cart\n\nimport "testing"\n\n'
        "func TestTotal(t *testing.T) {\n"
        "\tif Total() != add(1, 2) {\n\t\tt.Fatal(helper())\n\t}\n\t_ = Total()\n}\n"
    ),
    "cart/helper_test.go": 'package cart\n\nfunc helper() string { return "sum" }\n',
    # namesakes in another package, a method among them: a guess by name would split
    "other/other.go": (
        "package other\n\ntype Register struct{}\n\n"
        "func (r *Register) Total() int { return 0 }\n\n"
        "func add(a, b int) int { return a - b }\n\n"
        "func Total() int { return add(2, 1) }\n\n"
        "func Pick(s string) string { return helper(s) }\n\n"
        "func helper(s string) string { return s }\n"
    ),
    # one declaration, two builds
    "codec/codec.go": (
        "//go:build !nomsgpack\n\npackage codec\n\n"
        "func Pick(contentType string) string {\n\treturn contentType\n}\n"
    ),
    "codec/codec_nomsgpack.go": (
        "//go:build nomsgpack\n\npackage codec\n\n"
        'func Pick(contentType string) string {\n\treturn ""\n}\n'
    ),
    "codec/use.go": (
        'package codec\n\nfunc Default() string {\n\treturn Pick("application/json")\n}\n'
    ),
    "app/main.go": (
        'package main\n\nimport "example.com/shop/codec"\n\n'
        'func main() {\n\tprintln(codec.Pick("text/plain"))\n}\n'
    ),
    # `c.handlers[c.index](c)` parses as a conversion to a generic type `pkg.T[A]`
    "chain/chain.go": (
        "package chain\n\ntype Context struct {\n\thandlers []func(*Context)\n\tindex int\n}\n\n"
        "type Group struct {\n\thandlers []func(*Context)\n}\n\n"
        "func (c *Context) Next() {\n\tc.handlers[c.index](c)\n}\n"
    ),
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_tree(tmp_path_factory.mktemp("go_scope"), FILES)


def test_a_name_of_another_file_of_the_package_is_in_scope(index: Index) -> None:
    assert links(index, "cart/cart.go", "cart/cart.go::Total#function") == {
        "cart/math.go::add#function": 1.0  # not other/other.go's add
    }
    # a test file of the package sees the package and its other test files
    assert links(index, "cart/cart_test.go", "cart/cart_test.go::TestTotal#function") == {
        "cart/cart.go::Total#function": 1.0,  # not other's Total nor Register.Total
        "cart/math.go::add#function": 1.0,
        "cart/helper_test.go::helper#function": 1.0,
    }
    # a product file never sees a test file's names: other's helper is its own
    assert links(index, "other/other.go", "other/other.go::Pick#function") == {
        "other/other.go::helper#function": 1.0
    }


def test_definitions_of_alternative_builds_are_one_target(index: Index) -> None:
    both = {"codec/codec.go::Pick#function": 1.0, "codec/codec_nomsgpack.go::Pick#function": 1.0}
    assert links(index, "codec/use.go", "codec/use.go::Default#function") == both
    # through the package's import: not other/other.go's Pick
    assert links(index, "app/main.go", "app/main.go::main#function") == both


def test_a_call_through_an_indexed_field_is_the_declared_receiver_s_field(index: Index) -> None:
    # a guess split between Context.handlers and Group.handlers before (0.25 each)
    found = links(index, "chain/chain.go", "chain/chain.go::Context.Next#method")
    assert found["chain/chain.go::Context.handlers#field"] == 1.0
    assert found["chain/chain.go::Context.index#field"] == 1.0
    assert "chain/chain.go::Group.handlers#field" not in found


def test_a_type_written_alone_is_never_a_field(tmp_path_factory: pytest.TempPathFactory) -> None:
    """`int8 int8` names a field after its type, and `Target` embeds `int8`: the type
    `int8` written in the struct (and in another struct) is Go's, not either field."""
    index = index_of_tree(
        tmp_path_factory.mktemp("go_types"),
        {
            "go.mod": "module example.com/t\n\ngo 1.22\n",
            "t.go": "package t\n\ntype Target struct {\n\tint8 int8\n\tmust int8\n}\n\n"
            "type Embeds struct {\n\tint16\n}\n\ntype Other struct {\n\tsmall int16\n}\n",
        },
    )
    assert links(index, "t.go", "t.go::Target.must#field") == {}
    assert links(index, "t.go", "t.go::Other.small#field") == {}


def test_a_package_level_value_before_a_dot_is_used(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """`quoteEscaper.Replace(s)` uses the package's variable (`symfuse dead` listed it);
    `time.Second` and `fmt.Sprint` name imported packages, not the receiver's method
    `time` nor a Makefile's `fmt` target."""
    index = index_of_tree(
        tmp_path_factory.mktemp("go_values"),
        {
            "go.mod": "module example.com/v\n\ngo 1.22\n",
            "Makefile": "fmt:\n\tgo fmt ./...\n",
            "v.go": 'package v\n\nimport (\n\t"fmt"\n\t"strings"\n\t"time"\n)\n\n'
            'var quoteEscaper = strings.NewReplacer(`"`, `\\"`)\n\n'
            "type Binder struct{}\n\nfunc (b *Binder) time() int { return 1 }\n\n"
            "func (b *Binder) Wait() time.Duration {\n\treturn time.Second\n}\n\n"
            "func escape(s string) string {\n\treturn fmt.Sprint(quoteEscaper.Replace(s))\n}\n",
        },
    )
    assert links(index, "v.go", "v.go::escape#function") == {"v.go::quoteEscaper#variable": 1.0}
    assert links(index, "v.go", "v.go::Binder.Wait#method") == {"v.go::Binder#struct": 1.0}
