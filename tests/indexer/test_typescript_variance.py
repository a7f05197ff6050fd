"""TypeScript's variance annotations (``in``, ``out``), which the bundled grammar does
not know, blanked before the parse: zod writes them after a comment, one parameter a
line (``export interface ZodObject<`` / ``/** @ts-ignore Cast variance */`` / ``out
Shape extends core.$ZodShape = core.$ZodLooseShape,``), and its core schemas were
syntax-error problems with every interface after the first such head misread."""

from __future__ import annotations

from symfuse.indexer.extract.prepass import PREPASS
from symfuse.indexer.extract.tags import extract

ZOD = b"""export interface ZodObject<
  /** @ts-ignore Cast variance */
  out Shape extends core.$ZodShape = core.$ZodLooseShape,
  // the config
  out Config extends core.$ZodObjectConfig = core.$strip,
> extends _ZodType<core.$ZodObjectInternals<Shape, Config>> {
  shape: Shape;
}

export interface ZodEnum<out T extends util.EnumLike = util.EnumLike> {
  enum: T;
}
"""


def test_variance_after_a_comment_is_blanked() -> None:
    found = extract("packages/zod/src/v4/classic/schemas.ts", ".", "typescript", ZOD)
    assert found.problems == []
    fqns = {s.fqn for s in found.symbols}
    assert {"ZodObject", "ZodObject.shape", "ZodEnum", "ZodEnum.enum"} <= fqns, fqns


def test_comments_after_a_bracket_are_read_once() -> None:
    """A line comment holding many ``//`` after a ``<`` (a URL list, a commented-out
    path): a pattern free to backtrack tried every split of it (zod's
    ``language-server.test.ts`` took minutes); the same bytes come back at once."""
    source = b"const a = b <\n  // " + b"x // " * 40 + b"\n  c;\n"
    assert PREPASS["typescript"](source) == source
