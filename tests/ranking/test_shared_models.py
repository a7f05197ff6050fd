"""The word vectors and translation table learned over many corpora as over one (issue 40).

Two repositories, indexed together as one index of two roots and each alone as its
shard (its paths behind its alias, as the shards build them): the models learned once
from the shards' parts are the combined index's, to the last bit, and a shard scoring
with them gives its definitions the combined index's similarity and translation scores,
for query words its own vocabulary lacks too (and an undocumented function borrows no
docstring from a same-named one of the other repository, as its shard cannot).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.channels.lexical import BODY_AWARE, QueryTerms
from symfuse.ranking.channels.translation import query_ids
from symfuse.ranking.prepared.build import prepare, prepare_shared
from symfuse.ranking.prepared.shared import ShardParts, SharedModels
from symfuse.ranking.prepared.structures import Prepared
from symfuse.ranking.shards.global_stats import CorpusStats, stats_of, with_stats
from tests.support.cli import write_tree

REPOS = {
    "vault": {
        "vault/secrets.py": (
            "import getpass\n\n\n"
            "def read_secret(prompt):\n"
            '    """Ask the user for a password without echoing it."""\n'
            "    return getpass.getpass(prompt)\n\n\n"
            "def ask_password():\n"
            '    """Prompt for the password and hide what is typed."""\n'
            "    return getpass.getpass('Password: ').strip()\n\n\n"
            "def hidden_entry(label):\n"
            "    return getpass.getpass(label)\n"
        ),
        "vault/store.py": (
            "class Vault:\n"
            '    """A store of secrets kept in a file."""\n\n'
            "    def save(self, path):\n"
            '        """Write every secret to the file at path."""\n'
            "        with open(path, 'w') as out:\n"
            "            out.write(self.dump())\n\n"
            "    def dump(self):\n"
            "        return ''\n\n"
            "    def evict_secret(self, name):\n"
            "        return name\n"
        ),
    },
    "reports": {
        "reports/files.py": (
            "def load_report(path):\n"
            '    """Read the report file and return its lines."""\n'
            "    with open(path) as f:\n"
            "        return f.read().splitlines()\n\n\n"
            "def write_report(path, lines):\n"
            '    """Write the lines of a report to a file."""\n'
            "    with open(path, 'w') as f:\n"
            "        f.write('\\n'.join(lines))\n\n\n"
            "def archive(path):\n"
            "    with open(path) as f:\n"
            "        return f.read()\n\n\n"
            # the other repository documents a read_secret: a name alone lends no words
            "def read_secret(prompt):\n"
            "    return input(prompt)\n\n\n"
            "def remove_report(path):\n"
            "    return path\n\n\n"
            "def remove_all(paths):\n"
            "    return [remove_report(p) for p in paths]\n"
        ),
        "test/helpers.py": "def make_report():\n    return []\n",
    },
}


class Sides:
    def __init__(self, base: Path) -> None:
        self.roots = {a: write_tree(base / "repos" / a, files) for a, files in REPOS.items()}
        combined = IndexConfig(
            roots=tuple(self.roots.values()),
            names=tuple(self.roots),
            index_dir=base / "combined",
            progress=False,
        )
        self.combined_index, _ = update_index(combined)
        self.combined = prepare(self.combined_index)
        self.shards: dict[str, tuple[Index, Prepared, Path]] = {}
        for alias, root in self.roots.items():
            directory = base / "shards" / alias
            config = IndexConfig(roots=(root,), names=(alias,), index_dir=directory, progress=False)
            index, _ = update_index(config)
            prepared = prepare(index, directory, path_prefix=f"{alias}/")
            self.shards[alias] = (index, prepared, directory)
        parts = [ShardParts.of(self.shards[a][1]) for a in sorted(self.shards)]
        self.models = SharedModels.learned(parts)

    def shared(self, alias: str) -> tuple[Index, Prepared]:
        index, _, directory = self.shards[alias]
        return index, prepare_shared(index, directory, self.models, path_prefix=f"{alias}/")

    def position(self, alias: str, symbol_id: str) -> int:
        return self.combined_index.position[f"{alias}/{symbol_id}"]


@pytest.fixture(scope="module")
def sides(tmp_path_factory: pytest.TempPathFactory) -> Sides:
    return Sides(tmp_path_factory.mktemp("shared"))


def test_the_models_learned_from_the_shards_parts_are_the_combined_indexs(sides: Sides) -> None:
    mine, theirs = sides.models.word, sides.combined.similarity.model
    assert dict(mine.term_ids) == dict(theirs.term_ids)
    assert np.array_equal(mine.vectors, theirs.vectors)
    assert np.array_equal(mine.idf, theirs.idf)
    table = sides.combined.translation
    assert table is not None
    assert int(table.table.indptr[-1]) == sides.models.table.table.nnz


@pytest.mark.parametrize("query", ["ask for the password", "write the lines to a file"])
def test_a_shard_scores_its_definitions_as_the_combined_index_does(
    sides: Sides, query: str
) -> None:
    combined = sides.combined
    assert combined.translation is not None
    mixed = query_ids(query, combined.lexical.term_ids)
    for alias in sorted(sides.shards):
        index, prepared = sides.shared(alias)
        assert prepared.translation is not None
        at = np.asarray([sides.position(alias, s.symbol_id) for s in index.symbols])
        probe = np.ones(sides.models.word.dimensions, np.float32)
        own = prepared.similarity.doc_vectors.dot(probe)
        assert np.array_equal(own, combined.similarity.doc_vectors.dot(probe)[at])
        ids = query_ids(query, prepared.lexical.term_ids, prepared.translation.extra)
        assert len(ids) == len(mixed)  # a word only the other repository has is there too
        mine = prepared.translation.scores(ids, np.arange(len(index.symbols)))
        assert mine == pytest.approx(combined.translation.scores(mixed, at), rel=1e-6)
        assert prepared.similarity.model is sides.models.word


def _weighed(sides: Sides) -> dict[str, tuple[Index, Prepared]]:
    """Each shard with the shared models, re-weighed by the statistics of both."""
    shared = {alias: sides.shared(alias) for alias in sorted(sides.shards)}
    own = {a: stats_of(p, (i.edges.src, i.edges.dst)) for a, (i, p) in shared.items()}
    everyone = CorpusStats.merged(own.values())
    return {a: (i, with_stats(p, everyone, own[a])) for a, (i, p) in shared.items()}


def test_a_shard_with_the_global_statistics_scores_similarity_as_the_combined_index(
    sides: Sides,
) -> None:
    # "password" only one repository has, "lines" only the other: a query's TF-IDF
    # weights are divided by their length over the words of both, as in one index
    for query in ("ask for the password", "write the lines to a file", "read_secret"):
        combined = sides.combined.similarity.scores(query)
        for alias, (index, weighed) in _weighed(sides).items():
            at = np.asarray([sides.position(alias, s.symbol_id) for s in index.symbols])
            mine = weighed.similarity.scores(query)
            assert mine == pytest.approx(combined[at], abs=1e-6), (query, alias)


def test_a_shard_weighs_a_word_it_lacks_by_its_synonyms_as_the_combined_index(
    sides: Sides,
) -> None:
    # "evict" only vault holds; reports has its synonym "remove": a required word the
    # shard lacks scores its synonyms with the word's own idf, as the combined index does
    terms = QueryTerms.parse("evict report")
    combined, _ = sides.combined.lexical.scores(terms, BODY_AWARE)
    index, weighed = _weighed(sides)["reports"]
    at = np.asarray([sides.position("reports", s.symbol_id) for s in index.symbols])
    mine, _ = weighed.lexical.scores(terms, BODY_AWARE)
    assert mine.max() > 0
    assert mine == pytest.approx(combined[at], rel=1e-4)


def test_a_shards_files_have_the_roles_they_have_in_the_combined_index(sides: Sides) -> None:
    # a shard's file codes, made again when its pieces are read back, name its files as
    # the combined index does (reports/test/helpers.py), so tests and file patterns agree
    for alias in sorted(sides.shards):
        index, prepared = sides.shared(alias)
        at = np.asarray([sides.position(alias, s.symbol_id) for s in index.symbols])
        combined = sides.combined.filters.side_code(at)
        assert np.array_equal(prepared.filters.side_code(), combined), alias
        assert set(prepared.filters.files) <= set(sides.combined.filters.files)
