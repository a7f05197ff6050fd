"""A JavaScript/TypeScript member call on a receiver of unknown type (issue 36): the one
workspace definition of its name is a guess below the usages threshold (0.5), not a
link at 0.8; members of a typed receiver, of ``this`` and of an imported module link
as before."""

from __future__ import annotations

import pytest

from symfuse.indexer.index import Index
from symfuse.ranking.analysis.impact import impact
from tests.support.index import index_of_tree, links

FILES = {
    "source/client.ts": (
        "export class Client {\n"
        "  json(): string {\n    return this.text();\n  }\n\n"
        "  text(): string {\n    return '';\n  }\n"
        "}\n\n"
        "export function parse(body: string): unknown {\n  return body;\n}\n"
    ),
    "test/client.test.ts": (
        'import { Client } from "../source/client";\n'
        'import * as client from "../source/client";\n\n'
        "export async function check(url: string): Promise<void> {\n"
        "  const response = await fetch(url);\n"
        "  await response.json();\n"  # a fetch Response: not Client.json
        "  const mine = new Client();\n"
        "  mine.json();\n"  # typed by its constructor
        "  client.parse('{}');\n"  # through the namespace import
        "}\n"
    ),
    "test/server.js": (
        "function handler(request, res) {\n  res.json({ ok: true });\n}\n"  # express
        "module.exports = handler;\n"
    ),
    # file-level code (a test's callback is no definition): a guess and a sure use
    "test/routes.js": (
        "const app = require('express')();\n"
        "app.get('/', (request, response) => {\n  response.json({});\n});\n"
    ),
    "test/use.ts": (
        'import { Client } from "../source/client";\n\n'
        "const client = new Client();\nclient.json();\n"
    ),
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_tree(tmp_path_factory.mktemp("scripts"), FILES)


def test_a_member_of_an_unknown_receiver_is_a_guess(index: Index) -> None:
    check = links(index, "test/client.test.ts", "test/client.test.ts::check#function")
    assert check["source/client.ts::Client.json#method"] == 1.0  # mine.json(), typed
    assert check["source/client.ts::parse#function"] == 1.0  # client.parse(), imported
    handler = links(index, "test/server.js", "test/server.js::handler#function")
    assert handler == {"source/client.ts::Client.json#method": 0.4}  # res.json(): unknown


def test_a_member_of_this_links_through_its_class(index: Index) -> None:
    json = links(index, "source/client.ts", "source/client.ts::Client.json#method")
    assert json == {"source/client.ts::Client.text#method": 1.0}


def test_impact_leaves_a_file_level_guess_out(index: Index) -> None:
    json = index.get("source/client.ts::Client.json#method")
    assert json is not None
    result = impact(index, [json])
    files = {(item.file, item.relation) for group in result.files for item in group.items}
    assert ("test/use.ts", "module_code") in files  # client.json(), typed
    assert ("test/routes.js", "module_code") not in files  # response.json(): a guess
    assert result.unresolved >= 1
