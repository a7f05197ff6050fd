"""Dead code on a small tree: what is reported and why, what never is (entry points,
tests, hooks, exports, overrides), what only gets a low confidence, and the filters."""

from __future__ import annotations

from pathlib import Path

import pytest

from symfuse.indexer.errors import InvalidRequest
from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind
from symfuse.ranking.analysis.dead_code import DeadCodeScope, dead_code
from symfuse.ranking.analysis.dead_rules import PRIVATE_REASON, PUBLIC_REASON
from symfuse.ranking.query.search_request import IncludeTests
from tests.support.index import index_of_tree

API = """\
import json

from app.web import route


def exported_fn():
    return used_helper()


def used_helper():
    return 1


def listed():
    return 2


def _private_unused():
    return 3


def public_unused():
    return 4


def countdown(n):
    return countdown(n - 1) if n else 0


def main():
    run_script()


def run_script():
    return 5


class Base:
    def run(self):
        return self.hook()

    def hook(self):
        return 6

    def __repr__(self):
        return "Base()"

    @property
    def label(self):
        return "base"


class Child(Base):
    def hook(self):
        return 7


class Encoder(json.JSONEncoder):
    def default(self, o):
        return str(o)


@route("/home")
def home_view():
    return 8


def looked_up():
    return 9


def visit_Name(node):
    return node


def dispatch(obj, kind):
    getattr(obj, "looked_up")()
    return globals()["visit_" + kind]


def uses_tested():
    return 10


if __name__ == "__main__":
    main()
"""

TREE = {
    "app/__init__.py": 'from app.api import exported_fn\n\n__all__ = ["listed"]\n',
    "app/web.py": "def route(path):\n    return lambda f: f\n",
    "app/api.py": API,
    "app/run.py": "from app.api import Base, Child, Encoder, dispatch\n\n"
    "print(Base().run(), Child(), Encoder(), dispatch)\n",
    "tests/test_api.py": "from app.api import uses_tested\n\n\n"
    "def test_uses():\n    assert uses_tested() == 10\n\n\n"
    "def helper_nobody_calls():\n    return 0\n",
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_tree(tmp_path_factory.mktemp("dead"), TREE)


def names(index: Index, **scope: object) -> dict[str, tuple[float, str]]:
    result = dead_code(index, DeadCodeScope(**scope))  # type: ignore[arg-type]
    return {d.symbol.name: (d.confidence, d.reason) for d in result.items}


def test_unreferenced_definitions_are_reported_with_their_reason(index: Index) -> None:
    found = names(index)
    assert set(found) == {"_private_unused", "public_unused", "countdown"}
    assert found["_private_unused"] == (0.95, PRIVATE_REASON)
    assert found["public_unused"] == (0.8, PUBLIC_REASON)
    # a function only calls itself: still dead
    assert found["countdown"][0] == 0.8


def test_what_is_used_by_convention_is_never_reported(index: Index) -> None:
    found = names(index, min_confidence=0.0, include_tests=IncludeTests.TRUE)
    # entry points, __main__ callees, exports, __all__, overrides, dunders, test functions
    for name in ("main", "run_script", "exported_fn", "listed", "hook", "__repr__", "test_uses"):
        assert name not in found, name
    # used ones are not either
    for name in ("used_helper", "uses_tested", "Base", "dispatch"):
        assert name not in found, name


def test_signs_of_framework_or_dynamic_use_lower_the_confidence(index: Index) -> None:
    found = names(index, min_confidence=0.0)
    confidence, reason = found["home_view"]
    assert confidence <= 0.3
    assert "a web route" in reason  # a registering decorator: the reason says who calls it
    confidence, reason = found["default"]
    assert confidence <= 0.3
    assert "JSONEncoder" in reason
    confidence, reason = found["looked_up"]
    assert confidence <= 0.2
    assert 'written as a string ("looked_up")' in reason
    confidence, reason = found["label"]
    assert confidence == 0.45
    assert "a property" in reason
    confidence, reason = found["visit_Name"]
    assert confidence <= 0.2
    assert "builds names" in reason
    assert not {"home_view", "default", "looked_up", "visit_Name", "label"} & set(names(index))


def test_filters_and_test_code(index: Index) -> None:
    assert set(names(index, kinds=(Kind.CLASS,))) == set()
    assert set(names(index, file_pattern=("app/api.py",))) == {
        "_private_unused",
        "public_unused",
        "countdown",
    }
    assert names(index, languages=("go",)) == {}
    only_tests = names(index, include_tests=IncludeTests.ONLY)
    assert set(only_tests) == {"helper_nobody_calls"}


def test_paging_and_bad_limits(index: Index) -> None:
    first = dead_code(index, limit=1)
    assert len(first.items) == 1
    assert first.total == 3
    assert first.truncated
    assert first.items[0].symbol.name == "_private_unused"  # surest first
    assert first.by_kind == {"function": 3}
    with pytest.raises(InvalidRequest, match="limit"):
        dead_code(index, limit=0)


C_TREE = {
    "src/platform.h": """\
#ifndef PLATFORM_H
#define PLATFORM_H
#define _POSIX_C_SOURCE 200809L
#if SIZE_MAX == 0xffffffff
#define WORD_BITS 32
#else
#define WORD_BITS 64
#endif
#define HALF_WORD (WORD_BITS / 2)
#define NEVER_USED 1
#endif
""",
    "src/main.c": """\
#include "platform.h"
int main(void) { return HALF_WORD; }
""",
}


def test_c_macros_used_by_the_preprocessor_or_another_macro_are_not_dead(
    tmp_path: Path,
) -> None:
    """An include guard, a macro another macro's body uses, each branch's definition of
    a macro one use resolves to, and a feature-test macro (a reserved name, read by the
    system's headers) are not dead; a macro nothing names is."""
    index = index_of_tree(tmp_path, C_TREE)
    found = dead_code(index, DeadCodeScope(min_confidence=0.0))
    assert [(d.symbol.name, d.symbol.line) for d in found.items] == [("NEVER_USED", 10)]


SWIFT_TREE = {
    "Sources/Client.swift": """\
public final class Client {
    public enum Failure: Error { case closed }
    deinit { }
    public static func `protocol`(_ name: String) -> String { name }
    func unused() -> Int { 1 }
}

extension Client.Failure {
    var reason: String { "closed" }
}

@available(macOS 10.15, *)
public extension Client {
    func send() -> String { Client.`protocol`("x") }
}
""",
    "Sources/main.swift": "let client = Client()\n_ = client.send()\n",
}


def test_swift_extensions_deinit_and_quoted_names_are_not_dead(tmp_path: Path) -> None:
    """An extension adds to a type (nothing names it), the runtime calls `deinit`, and
    a quoted name (`protocol`) is used by its bare word."""
    index = index_of_tree(tmp_path, SWIFT_TREE)
    found = dead_code(index, DeadCodeScope(min_confidence=0.0))
    # Failure is named only in its extension's head: low, as a type inside a type
    assert [(d.symbol.name, d.symbol.kind.value) for d in found.items] == [
        ("unused", "method"),
        ("Failure", "enum"),
    ]
    assert index.by_name.get("protocol")  # named without its backticks


GEM = {
    "widget.gemspec": 'Gem::Specification.new do |s|\n  s.name = "widget"\nend\n',
    "lib/widget.rb": """\
module Widget
  class Part
    def visible?
      true
    end

    def hidden_later
      1
    end
    private :hidden_later

    private

    def helper
      2
    end
  end
end
""",
    "test/test_widget.rb": "class TestWidget\n  def check_part\n    1\n  end\nend\n",
}


def test_a_gems_public_methods_are_its_api(tmp_path: Path) -> None:
    """Classes and methods of a gem's lib/ may be used by its users (listed only at a
    low confidence); a method of a private section is not (`private :name` names it)."""
    index = index_of_tree(tmp_path / "gem", GEM)
    assert {d.symbol.name for d in dead_code(index).items} == {"helper"}
    everything = dead_code(index, DeadCodeScope(min_confidence=0.0)).items
    api = {d.symbol.name for d in everything if "gem's lib/" in d.reason}
    assert api == {"Part", "visible?"}
    plain = index_of_tree(tmp_path / "app", {k: v for k, v in GEM.items() if "lib/" in k})
    assert {d.symbol.name for d in dead_code(plain).items} >= {"visible?", "helper"}


SCALA = {
    "src/Walk.scala": """\
package walk

trait Visitor { def visit(p: String): Unit }

object Walk {
  implicit def fromString(s: String): Walk.Path = Path(s)

  case class Path(s: String)

  object Glob {
    def unapply(s: String): Option[String] = Some(s)
  }

  def visitor() = new Visitor {
    def visit(p: String): Unit = println(p)
  }

  def helper(): Unit = {
    def local(): Int = 1
    ()
  }
}

class Loud extends Visitor {
  override def visit(p: String): Unit = println(p.toUpperCase)
}
""",
    "src/Main.scala": (
        "package walk\n\nobject Main {\n  def main(args: Array[String]): Unit = Walk.visitor()\n}\n"
    ),
}


def test_scala_overrides_implicits_syntax_methods_and_built_objects(tmp_path: Path) -> None:
    """`override`, an implicit conversion and `unapply` are called by the language; a def in
    `new Visitor { ... }` is the built object's method (listed low); a local def is dead."""
    index = index_of_tree(tmp_path, SCALA)
    surest = {d.symbol.name for d in dead_code(index).items}
    assert surest == {"helper", "local"}
    low = {
        d.symbol.name: d.reason for d in dead_code(index, DeadCodeScope(min_confidence=0.0)).items
    }
    assert set(low) == {"helper", "local", "visit", "Loud", "fromString"}
    assert "an implicit definition" in low["fromString"]


COMPOSER = {
    "composer.json": '{"name": "acme/http", "autoload": {"psr-4": {"Acme\\\\": "src/"}}}',
    "src/Stack.php": """\
<?php
namespace Acme;

class Stack
{
    public function hasHandler(): bool { return $this->check(); }
    private function check(): bool { return true; }
    private function unusedHelper(): int { return 1; }
}
""",
    "tools/build.php": "<?php\nfunction build_release() { return 1; }\n",
}


def test_a_composer_librarys_public_code_is_its_api(tmp_path: Path) -> None:
    """What a Composer library autoloads may be called by its users (listed only at a low
    confidence); its private members and a project's code are not its API."""
    library = index_of_tree(tmp_path / "library", COMPOSER)
    assert {d.symbol.name for d in dead_code(library).items} == {"unusedHelper", "build_release"}
    low = dead_code(library, DeadCodeScope(min_confidence=0.0)).items
    assert {d.symbol.name for d in low if "Composer library" in d.reason} == {"Stack", "hasHandler"}
    project = dict(COMPOSER, **{"composer.json": '{"type": "project", "autoload": {}}'})
    plain = index_of_tree(tmp_path / "project", project)
    assert {"hasHandler", "unusedHelper"} <= {d.symbol.name for d in dead_code(plain).items}


ELIXIR = {
    "mix.exs": """\
defmodule Shop.MixProject do
  use Mix.Project

  def project, do: [app: :shop]
  def application, do: []
end
""",
    "lib/shop/server.ex": """\
defmodule Shop.Server do
  use GenServer

  @impl true
  def init(state), do: {:ok, state}

  @doc false
  @impl GenServer
  def handle_cast(_msg, state), do: {:noreply, state}

  defp unused_helper, do: :ok
end

defimpl String.Chars, for: Shop.Server do
  def to_string(_), do: "server"
end
""",
}


def test_elixir_callbacks_are_not_dead(tmp_path: Path) -> None:
    """`@impl` callbacks, a protocol's implementation (defimpl) and a Mix project's
    `project`/`application` are called by name from outside; a private function nothing
    calls is dead (a public one is the package's API: tests/ranking/test_dead_elixir.py)."""
    index = index_of_tree(tmp_path, ELIXIR)
    assert [d.symbol.name for d in dead_code(index).items] == ["unused_helper"]


PROGRAMS = {
    "App/Program.cs": """\
namespace App {
  public class Program {
    public static void Main(string[] args) { new Worker().Run(); }
  }
  public class Worker {
    public void Run() { }
  }
  public class Other { public void Main() { } }
}
""",
    "src/Main.java": """\
package a;
public class Main {
  public static void main(String[] args) { helper(); }
  static void helper() {}
}
""",
}


def test_a_programs_entry_class_and_csharps_main_are_not_dead(tmp_path: Path) -> None:
    """C#'s static `Main` and the classes holding a program's `main` run it; an instance
    method that happens to be called Main is a method like any."""
    index = index_of_tree(tmp_path, PROGRAMS)
    found = dead_code(index, DeadCodeScope(min_confidence=0.0)).items
    assert [(d.symbol.fqn, d.symbol.kind.value) for d in found] == [
        ("App.Other", "class"),
        ("App.Other.Main", "method"),
    ]


EXTENSIONS = {
    "src/Ext.cs": """\
namespace App {
  public static class ServiceCollectionExtensions {
    public static IServiceCollection AddThing(this IServiceCollection services) {
      return Register(services);
    }
    private static IServiceCollection Register(IServiceCollection services) { return services; }
  }
  public class Island {
    public void A() { B(); }
    public void B() { }
  }
  public class User {
    public void Go(IServiceCollection services) { services.AddThing(); }
  }
}
""",
}


def test_a_class_whose_members_are_used_from_outside_is_in_use(tmp_path: Path) -> None:
    """C#'s static class of extension methods is never named (`services.AddThing()`),
    yet in use; a class whose members only call one another is not."""
    index = index_of_tree(tmp_path, EXTENSIONS)
    names = {d.symbol.name for d in dead_code(index, DeadCodeScope(min_confidence=0.0)).items}
    assert "ServiceCollectionExtensions" not in names
    assert "AddThing" not in names
    assert {"Island", "A"} <= names


def test_a_c_struct_and_its_typedef_are_one_type(tmp_path: Path) -> None:
    """``typedef struct events { int fd; } events;``: a use names the typedef or the
    struct, and is a use of both."""
    files = {
        "src/events.h": "typedef struct events {\n  int fd;\n} events;\n",
        "src/main.c": '#include "events.h"\nint main(void) { events e; e.fd = 0; return e.fd; }\n',
    }
    index = index_of_tree(tmp_path, files)
    found = dead_code(index, DeadCodeScope(min_confidence=0.0))
    assert "events" not in {d.symbol.name for d in found.items}
