"""The learned re-ranking (ranking/fusion/rerank.py) never moves down an undocumented
definition that both text channels rank first: it keeps its place, and says why with
``fusion_debug``, where long documented routines the channels rank lower would have
passed it (cobra's 3-line ``MarkFlagFilename`` below its shell-completion templates)."""

from __future__ import annotations

import pytest

from symfuse.indexer.index import Index
from symfuse.ranking.api import SearchRequest, search
from symfuse.ranking.fusion import rerank
from symfuse.ranking.query.responses import Change
from symfuse.ranking.query.search_request import Channel
from symfuse.ranking.search import file_text
from tests.support.index import index_of_tree

QUERY = "limit file completion for a flag to certain extensions"
LINE = "    # {shell} completion of a file flag: filter the file names by their extensions"
TEMPLATE = (
    '''def gen_{shell}_completion(out, name):
    """Write the {shell} completion script for the command."""
    script = """
'''
    + "\n".join([LINE] * 40)
    + '''
    """
    out.write(script.replace("NAME", name))
'''
)
FLAGS = """def mark_flag_filename(command, flag, extensions):
    return command.annotate(flag, "filename_extensions", extensions)


def mark_flag_required(command, flag):
    return command.annotate(flag, "required", True)
"""


@pytest.fixture(scope="module")
def completions(tmp_path_factory: pytest.TempPathFactory) -> Index:
    shells = ("bash", "zsh", "fish", "powershell")
    files = {f"completions/{shell}.py": TEMPLATE.format(shell=shell) for shell in shells}
    files["flags.py"] = FLAGS
    return index_of_tree(tmp_path_factory.mktemp("completions"), files)


def test_an_answer_first_in_both_text_channels_keeps_its_place(completions: Index) -> None:
    found = search(completions, SearchRequest(query=QUERY, limit=6, fusion_debug=True))
    first = found.items[0]
    assert first.symbol.name == "mark_flag_filename"
    assert first.channels[Channel.LEXICAL].rank == first.channels[Channel.SIMILARITY].rank == 1
    (held,) = [a for a in first.adjustments if a.change is Change.RERANK]
    assert held.reason == rerank.HELD
    assert held.moved is None


def test_without_the_rule_the_templates_pass_it(
    completions: Index, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rerank, "AGREED", 0)  # the premise: the model alone moves it down
    monkeypatch.setattr(file_text, "WEIGHT", 0.0)  # (and no file's text lifts it back)
    found = search(completions, SearchRequest(query=QUERY, limit=6, fusion_debug=True))
    names = [item.symbol.name for item in found.items]
    assert names.index("mark_flag_filename") >= 4, names
    assert all(a.reason != rerank.HELD for item in found.items for a in item.adjustments)
