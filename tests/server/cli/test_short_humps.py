"""Short camel humps through the installed command: two or three letters typed as humps
(``AC``, ``ACl``, ``sP``, ``ZO``) find the names whose humps they are before the names
that merely start with them (issue 37, item 5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import run_symfuse, write_tree

pytestmark = pytest.mark.slow  # runs the installed symfuse command

# Shaped like httpx and zod: the names that merely start with the letters are many and
# called often (central), the ones whose humps they are few.
FILES = {
    "client.py": '''
ACCEPT_ENCODING = "gzip"


class AsyncByteStream:
    async def aclose(self) -> None:
        """Close the stream."""


class Response:
    async def aclose(self) -> None:
        """Close the response."""


class AsyncClient:
    """An asynchronous HTTP client."""

    async def aclose(self) -> None:
        """Close the client."""
        await AsyncByteStream().aclose()
        await Response().aclose()


async def shutdown(client: AsyncClient, response: Response) -> None:
    await client.aclose()
    await response.aclose()
    print(ACCEPT_ENCODING)
''',
    "schemas.ts": """
export const zod3 = { version: 3 };

export class ZodType {
  spa(data: unknown): unknown { return this.safeParse(data); }
  safeParse(data: unknown): unknown { return data; }
}

export class ZodObject extends ZodType {}

export function parse(t: ZodType, data: unknown): unknown {
  console.log(zod3.version);
  return t.spa(data) ?? t.spa(data);
}
""",
}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = write_tree(tmp_path_factory.mktemp("humps"), FILES)
    index_dir = tmp_path_factory.mktemp("humps-index")
    run_symfuse(["index", str(root), "--index-dir", str(index_dir), "--no-progress"])
    return root, index_dir


@pytest.mark.parametrize(
    ("query", "first", "later"),
    [
        ("AC", "AsyncClient", {"aclose", "ACCEPT_ENCODING"}),
        ("ACl", "AsyncClient", {"aclose"}),
        ("sP", "safeParse", {"spa"}),
        ("ZO", "ZodObject", {"zod3"}),
    ],
)
def test_short_humps_before_prefixes(
    workspace: tuple[Path, Path], query: str, first: str, later: set[str]
) -> None:
    root, index_dir = workspace
    result = run_symfuse(
        ["search", query, str(root), "--index-dir", str(index_dir), "-f", "json", "--limit", "50"]
    )
    names = [item["name"] for item in json.loads(result.stdout)["items"]]
    assert names[0] == first, names
    # the names that merely start with the letters are still found, after it
    assert later <= set(names[1:]), names


def test_lower_case_letters_still_read_as_a_prefix(workspace: tuple[Path, Path]) -> None:
    root, index_dir = workspace
    result = run_symfuse(["search", "ac", str(root), "--index-dir", str(index_dir), "-f", "json"])
    names = [item["name"] for item in json.loads(result.stdout)["items"]]
    assert names[0] in {"aclose", "ACCEPT_ENCODING"}, names
    assert names.index("aclose") < names.index("AsyncClient"), names
