"""Ruby's bare calls: a method called without arguments is written as a bare name
(`helper`, `authorization_key.nil?`, `tok = consume_boundary`), which the grammar reads as
it reads a local variable. Such a name is a call inside a method that does not bind it,
and it reaches what the method's class inherits: its mixins and its superclass, looked up
from the modules the class is written in. Before, none of these had a usage."""

from __future__ import annotations

from pathlib import Path

from symfuse.indexer.index import Index
from symfuse.ranking.query import operations
from symfuse.ranking.query.requests import UsagesRequest
from tests.support.index import index_of_tree

PARSER = """\
class Parser
  def handle(x, y = challenge)
    tok = consume_boundary
    case consume_boundary
    when 1 then helper
    end
    return unauthorized unless x
    authorization_key.nil?
    content_blocks[x] << tok
    [1].each { |item| item.to_s }
    item = 2
    stat = stat(x)
    item + y + stat
  end

  private

  def consume_boundary; 1; end
  def helper; end
  def unauthorized; end
  def challenge; end
  def authorization_key; end
  def content_blocks; {}; end
  def item; end
  def stat(path); path; end
end

item = 1
item.to_s
"""

HIERARCHY = {
    "lib/rack/protection/base.rb": "module Rack\n  module Protection\n    class Base\n"
    "      def html?(env)\n        true\n      end\n    end\n  end\nend\n",
    "lib/rack/protection/frame.rb": "module Rack\n  module Protection\n"
    "    class Frame < Base\n      def call(env)\n        html? env\n        deny\n"
    "        settings\n      end\n    end\n  end\nend\n",
    "lib/sinatra/base.rb": "module Sinatra\n  module Helpers\n    def settings\n      1\n"
    "    end\n  end\n\n  class Base\n    include Helpers\n\n    def html?(env)\n"
    "      false\n    end\n\n    def deny\n      settings\n    end\n  end\nend\n",
    "lib/app.rb": "class App < Sinatra::Base\n  def route\n    deny\n  end\nend\n",
}


def _usages(index: Index, symbol_id: str) -> list[tuple[str, int, float]]:
    found = operations.usages(index, UsagesRequest(target=symbol_id, min_confidence=0.0))
    return [(u.file, u.line, u.confidence) for u in found.usages]


def test_a_bare_name_in_a_method_is_a_call_unless_the_method_binds_it(tmp_path: Path) -> None:
    index = index_of_tree(tmp_path, {"parser.rb": PARSER})

    def lines(name: str) -> list[int]:
        return [line for _, line, _ in _usages(index, f"parser.rb::Parser.{name}#method")]

    assert lines("consume_boundary") == [3, 4]
    assert lines("helper") == [5]
    assert lines("unauthorized") == [7]
    assert lines("authorization_key") == [8]
    assert lines("content_blocks") == [9]
    assert lines("challenge") == [2]  # a parameter's default
    # `item` is a block's parameter and a local of `handle`, and at the top level a local
    # of the script: never the method; `stat(x)` with its argument is a call all the same
    assert lines("item") == []
    assert lines("stat") == [12]


def test_a_bare_call_reaches_what_its_class_inherits(tmp_path: Path) -> None:
    """`html? env` in Rack::Protection::Frame (`< Base`, written inside `module Rack;
    module Protection`) is Rack::Protection::Base's, not Sinatra::Base's; a class's bare
    call reaches its included module's method and its superclass's."""
    index = index_of_tree(tmp_path, HIERARCHY)
    rack_html = "lib/rack/protection/base.rb::Rack.Protection.Base.html?#method"
    sinatra_html = "lib/sinatra/base.rb::Sinatra.Base.html?#method"
    assert _usages(index, rack_html) == [("lib/rack/protection/frame.rb", 5, 1.0)]
    assert _usages(index, sinatra_html) == []
    deny = "lib/sinatra/base.rb::Sinatra.Base.deny#method"
    assert ("lib/app.rb", 3, 1.0) in _usages(index, deny)
    settings = _usages(index, "lib/sinatra/base.rb::Sinatra.Helpers.settings#method")
    assert ("lib/sinatra/base.rb", 16, 1.0) in settings
