"""Dead code in Elixir, as plug writes it: a function of several clauses is one function;
calls in a `cond` condition, under `not`, `&` or `and`, or as a remote call's argument
are uses; `Record.defrecord(:conn, ...)` defines `conn(...)`; `@impl` above a callback's
first clause covers the others; a Mix project's public functions are its package's API.
"""

from __future__ import annotations

from pathlib import Path

from symfuse.ranking.analysis.dead_code import DeadCodeScope, dead_code
from tests.support.index import index_of_tree

PLUG = {
    "mix.exs": "defmodule Plug.MixProject do\n  use Mix.Project\n\n"
    "  def project, do: [app: :plug]\nend\n",
    "lib/plug/csrf.ex": """\
defmodule Plug.CSRF do
  require Record
  Record.defrecord(:conn, [:host, :lock])

  def call(c, hosts, docs) do
    cond do
      verified?(c, hosts) -> c
      not xhr?(c) and same_origin?(c) -> conn(c, :lock)
      true -> Enum.any?(docs, matcher(c))
    end
  end

  defp verified?(c, hosts), do: Enum.any?(hosts, &allowed?(&1, c))

  defp allowed?("." <> _ = allowed, host), do: String.ends_with?(host, allowed)
  defp allowed?(allowed, host), do: allowed == host

  defp xhr?(c), do: empty?(c) or c
  defp same_origin?(c), do: c

  defp empty?(""), do: true
  defp empty?([]), do: true
  defp empty?([h | t]), do: empty?(h) and empty?(t)
  defp empty?(_), do: false

  defp matcher(c), do: &(&1 == c)

  defp forgotten(c), do: c
end
""",
    "lib/plug/upload.ex": """\
defmodule Plug.Upload do
  use GenServer

  @impl true
  def handle_info({:DOWN, _ref, :process, _pid, _reason}, state) do
    {:noreply, state}
  end

  def handle_info(_msg, state) do
    {:noreply, state}
  end

  def random_file(prefix), do: prefix
end
""",
    "lib/plug/internal.ex": "defmodule Plug.Internal do\n  @moduledoc false\n\n"
    "  def unused_helper(x), do: x\nend\n",
}


def test_what_plug_uses_is_not_dead(tmp_path: Path) -> None:
    index = index_of_tree(tmp_path, PLUG)
    found = dead_code(index, DeadCodeScope(min_confidence=0.0)).items
    by_id = {d.symbol.symbol_id.split("::")[1]: d for d in found}
    assert set(by_id) == {
        "Plug.CSRF.forgotten#function",
        "Plug.Internal.unused_helper#function",
        "Plug.CSRF.call#function",  # public API: its users call it
        "Plug.Upload.random_file#function",
        "Plug.Upload.handle_info#function",  # callbacks (the second clause too)
        "Plug.Upload.handle_info#function~2",
        "Plug.MixProject.project#function",
    }
    assert by_id["Plug.CSRF.forgotten#function"].reason == "private and unreferenced"
    assert "Hex package" in by_id["Plug.Upload.random_file#function"].reason
    assert by_id["Plug.Upload.handle_info#function~2"].reason.startswith("unreferenced, but @impl")
    # `@moduledoc false`: internal, no API
    assert by_id["Plug.Internal.unused_helper#function"].confidence >= 0.5
    assert {d.symbol.name for d in dead_code(index).items} == {"forgotten", "unused_helper"}
