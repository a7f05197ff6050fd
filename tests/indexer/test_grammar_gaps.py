"""Scala as cats writes it: a parent's empty argument list before its implicit one
(``class ListHash[A](implicit ev: Hash[A]) extends ListEq[A]()(ev) with Hash[List[A]]``)
was a syntax error; the class and its members are read."""

from __future__ import annotations

from symfuse.indexer.extract.tags import extract


def test_a_parent_s_empty_argument_list_before_another() -> None:
    source = b"""package cats.kernel.instances

class ListHash[A](implicit ev: Hash[A]) extends ListEq[A]()(ev) with Hash[List[A]] {
  def hash(x: List[A]): Int = StaticMethods.listHash(x)
}
"""
    found = extract(
        "kernel/src/main/scala/cats/kernel/instances/ListInstances.scala", ".", "scala", source
    )
    assert found.problems == []
    assert "ListHash.hash" in {s.fqn for s in found.symbols}
    assert {"ListEq", "Hash"} <= {r.name for r in found.references}
