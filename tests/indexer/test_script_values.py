"""Values and types JavaScript and TypeScript use without calling them, as hono writes
them: a class field's initial value, a counter updated in place, types inside
conditional, mapped, `keyof`, lookup and function types. Each was no reference, so
`dead` listed hono's `notFoundHandler`, `suspenseCounter` and `DefaultRenderer`."""

from __future__ import annotations

import pytest

from symfuse.indexer.index import Index
from tests.support.index import index_of_tree, named_links

BASE = """const notFoundHandler = (c: Context) => c.text('404')
let suspenseCounter = 0
let total = 0
const STEP = 2
interface DefaultRenderer { render(): string }
interface ContextRenderer { (): string }
type Methods = 'get' | 'post'
interface Options { strict: boolean }
interface Result { ok: boolean }
interface Guarded { kind: 'g' }

export class Hono {
  #notFoundHandler: Handler = notFoundHandler
  next() {
    const index = suspenseCounter++
    total += STEP
    return index
  }
}

export type Renderer = ContextRenderer extends Function ? ContextRenderer : DefaultRenderer
export type Routes<S> = { [M in Methods]: S }
export type OptionName = keyof Options
export type Strict = Options['strict']
export type Run = (input: string) => Result
export function isGuarded(x: unknown): x is Guarded { return true }
"""


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    files = {
        "src/hono.ts": BASE,
        "src/plain.js": "const handler = () => 1\nclass App { onError = handler }\n",
    }
    return index_of_tree(tmp_path_factory.mktemp("script_values"), files)


@pytest.mark.parametrize(
    ("source", "used"),
    [
        ("Hono.#notFoundHandler", "notFoundHandler"),  # a class field's initial value
        ("Hono.next", "suspenseCounter"),  # `suspenseCounter++`
        ("Hono.next", "total"),  # `total += STEP`
        ("Hono.next", "STEP"),
        ("Renderer", "DefaultRenderer"),  # a conditional type's branch
        ("Renderer", "ContextRenderer"),
        ("Routes", "Methods"),  # a mapped type's keys
        ("OptionName", "Options"),  # `keyof Options`
        ("Strict", "Options"),  # `Options['strict']`
        ("Run", "Result"),  # a function type's result
        ("isGuarded", "Guarded"),  # a type predicate
    ],
)
def test_a_value_or_type_used_uncalled_links(index: Index, source: str, used: str) -> None:
    assert used in named_links(index, "src/hono.ts", source)


def test_a_javascript_class_field_s_value_links(index: Index) -> None:
    assert "handler" in named_links(index, "src/plain.js", "App.onError")
