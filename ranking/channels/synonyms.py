"""Words a question and the code it asks about use for the same thing.

A question says "remove the flags" where the code says ``stripFlags`` and "delete arg";
"nested too deeply" where it says ``remaining_depth``. Prose queries (the sentence,
mixed and text shapes; :attr:`~symfuse.ranking.channels.lexical.Bm25f.synonyms`) count
a definition's synonyms of a query word as that word at a lower weight. Identifier
queries never do: a name is matched as written.

Each line is one group of interchangeable words of programming prose (verbs of
collections, lifecycles and I/O, and the usual abbreviations), written from common usage
rather than from any benchmark's queries; words are stemmed as query terms are. A word in
two groups unites neither: each of its groups stands in for it.
"""

from __future__ import annotations

from collections.abc import Mapping

from symfuse.ranking.channels.tokens import stem

_GROUPS = """
remove delete drop strip erase discard purge evict unset
create make build construct generate instantiate
find search lookup locate seek
get fetch retrieve obtain
start begin launch spawn boot
stop halt terminate shutdown kill abort
close shutdown dispose release
check validate verify ensure
error failure fault exception panic
limit cap max bound threshold quota
combine merge join concat
split divide partition chunk
copy clone duplicate
show display print render
wait sleep pause delay
send emit dispatch publish
receive recv consume
register add attach install
skip ignore bypass omit
deep depth nested nesting recursion recursive
quote escape
count tally
clear reset flush
option config configuration flag
argument arg param parameter
parse decode deserialize unmarshal
serialize encode marshal
key field property attribute
length size len
connection conn socket
request req
response resp reply
message msg
buffer buf
directory dir folder
file path
callback handler hook listener
"""


def _synonyms(groups: str) -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    for line in groups.strip().splitlines():
        words = {stem(w) for w in line.split()}
        for word in words:
            found.setdefault(word, set()).update(words - {word})
    return {word: frozenset(others) for word, others in found.items()}


SYNONYMS: Mapping[str, frozenset[str]] = _synonyms(_GROUPS)
"""Stemmed word -> the stemmed words that stand in for it."""
