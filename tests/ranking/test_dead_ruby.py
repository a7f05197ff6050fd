"""Dead code in Ruby: what the runtime calls by name (`initialize` on `new`,
`method_missing`, `to_s`, operators, as Scala's, Swift's and Kotlin's are), a module's
method that calls `super` (it overrides the method of whatever class includes it), and
the gems of a repository of several (sinatra with sinatra-contrib/ and rack-protection/,
each with its gemspec)."""

from __future__ import annotations

from pathlib import Path

from symfuse.ranking.analysis.dead_code import DeadCodeScope, dead_code
from tests.support.index import index_of_tree

HOOKS = {
    "app/money.rb": """\
class Money
  def initialize(cents)
    @cents = cents
  end

  def <=>(other)
    cents <=> other.cents
  end

  def to_s
    "$#{cents}"
  end

  def method_missing(name, *args)
    super
  end

  def respond_to_missing?(name, include_private = false)
    super
  end

  def cents
    @cents
  end

  def unused_rate
    1
  end
end
""",
    "app/reloader.rb": """\
module Reloader
  private

  def compile!(verb, path)
    watch(path)
    super
  end

  def watch(path)
    path
  end

  def forgotten
    2
  end
end
""",
    "app/main.rb": "puts Money.new(5)\n",
    # operators elsewhere: Scala's and Swift's symbolic methods, Kotlin's `operator fun`
    "src/Perms.scala": "class Perms(v: Int) {\n  def +(o: Perms): Perms = this\n"
    "  def unusedPerm: Int = v\n}\n",
    "src/Vec.kt": "class Vec {\n    operator fun plus(o: Vec): Vec = this\n"
    "    fun unusedVec(): Int = 1\n}\n",
    "src/Money.swift": "struct Cents {\n"
    "    static func == (a: Cents, b: Cents) -> Bool { true }\n"
    "    subscript(i: Int) -> Int { i }\n"
    "    func makeIterator() -> IndexingIterator<[Int]> { [1].makeIterator() }\n}\n",
    "Package.swift": 'import PackageDescription\n\nlet package = Package(name: "Money")\n',
}


def test_what_ruby_runs_by_name_and_overrides_are_not_dead(tmp_path: Path) -> None:
    index = index_of_tree(tmp_path, HOOKS)
    found = dead_code(index, DeadCodeScope(min_confidence=0.0))
    names = sorted(d.symbol.name for d in found.items)
    assert names == ["Cents", "Perms", "Vec", "forgotten", "unusedPerm", "unusedVec", "unused_rate"]


GEMS = {
    "sinatra.gemspec": 'Gem::Specification.new { |s| s.name = "sinatra" }\n',
    "lib/sinatra/base.rb": "module Sinatra\n  class Base\n    def url(path)\n      path\n"
    "    end\n  end\nend\n",
    "contrib/sinatra-contrib.gemspec": 'Gem::Specification.new { |s| s.name = "contrib" }\n',
    "contrib/lib/sinatra/engine_tracking.rb": "module Sinatra\n  module EngineTracking\n"
    "    def sass?\n      true\n    end\n  end\nend\n",
    "tools/lib/release.rb": "module Release\n  def bump\n    1\n  end\nend\n",
}


def test_each_gem_of_a_repository_ships_its_lib(tmp_path: Path) -> None:
    """A folder with a gemspec ships its lib/: its methods are its users' API (listed at
    a low confidence), at the top or in a subfolder; lib/ of a folder with no gemspec is
    not shipped."""
    index = index_of_tree(tmp_path, GEMS)
    found = dead_code(index, DeadCodeScope(min_confidence=0.0)).items
    api = {d.symbol.name for d in found if "gem's lib/" in d.reason}
    assert api == {"Base", "url", "sass?"}
    assert {d.symbol.name for d in dead_code(index).items} == {"bump"}
