"""One reading of a query, before any ranking: its mode, a call-graph question, its shape.

Every front end asks through here: :func:`parse` reads a :class:`SearchRequest` once
(``mode: auto`` resolved to ``get`` for a path or symbol id; "who calls X" recognised,
X being what is looked up; the shape of what is looked up, which picks the channel
plan), and :func:`parse_symbol_query` reads an editor's ``workspace/symbol`` text with
its filter prefixes::

    kind:class Order          only classes (k: for short; several: kind:class,function)
    lang:python render        only Python symbols (l: for short; lang:py or lang:.py too)
    file:shop/** total        only files matching the glob (f: or in: for short)
    #Order                    a leading # is ignored (VS Code's "go to symbol" prefix)

Kind and language words are those of :mod:`.vocabulary`, as in the CLI and MCP.
Unknown ``word:`` prefixes are searched as text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from symfuse.indexer.files import languages
from symfuse.indexer.model import Kind
from symfuse.ranking.query.intent import call_query, is_path_shaped
from symfuse.ranking.query.responses import CallQuery
from symfuse.ranking.query.search_request import SearchMode, SearchRequest
from symfuse.ranking.query.vocabulary import kind_of, language_of
from symfuse.ranking.search.plans import Shape, classify


@dataclass(frozen=True, slots=True)
class ParsedQuery:
    """What a search request asks, read once."""

    mode: SearchMode  # never AUTO
    call: CallQuery | None  # "who calls X" / "what does X call"; the graph answers it
    subject: str  # what is looked up: X of a call question, else the query as asked
    shape: Shape  # the shape of ``subject``: which channels rank it (search.plans)


def parse(request: SearchRequest) -> ParsedQuery:
    """``request``'s query read once (see the module doc)."""
    mode, subject = request.mode, request.query
    if mode is SearchMode.AUTO:
        named = qualified(subject) if is_path_shaped(subject) else None
        if named is not None:
            mode, subject = SearchMode.SINGLE, named
        else:
            mode = SearchMode.GET if is_path_shaped(subject) else SearchMode.SINGLE
    call = call_query(subject) if mode is not SearchMode.GET else None
    subject = call.target if call is not None else subject
    if mode is not SearchMode.GET and _METHOD_CALL.fullmatch(subject.strip()):
        subject = subject.strip().replace(":", ".")  # Lua's `Picker:find` is `Picker.find`
    return ParsedQuery(mode, call, subject, classify(subject))


# a method as Lua writes its call and definition (`Picker:find`, `M.Job:new`): a name, then
# one colon and a name (not `::`, not `file:12`)
_METHOD_CALL = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*:[A-Za-z_]\w*")


_QUALIFIED = re.compile(r"[A-Za-z_$][\w$]*(?:(?:\\|::|->|\.|#)[A-Za-z_$][\w$]*)+(?:/\d+)?")
_SEPARATOR = re.compile(r"\\|::|->|#")


def qualified(query: str) -> str | None:
    """A qualified name written with its language's own separators that reads like a path
    (PHP's ``GuzzleHttp\\Client::send``, Elixir's ``Repo.insert/2``), as a dotted name
    (``GuzzleHttp.Client.send``, ``Repo.insert``); None for anything else, a file's path
    included (``shop\\models.py``)."""
    q = query.strip()
    if not _QUALIFIED.fullmatch(q):
        return None
    if any(languages.detect(part) is not None for part in re.split(r"\\|::|#|/", q)):
        return None  # a file's path, or a symbol id (path::Qualified.name#kind)
    return _SEPARATOR.sub(".", re.sub(r"/\d+$", "", q))


_KIND_KEYS = ("kind:", "k:")
_LANG_KEYS = ("lang:", "language:", "l:")
_FILE_KEYS = ("file:", "f:", "in:")


@dataclass(frozen=True, slots=True)
class SymbolQuery:
    """An editor's ``workspace/symbol`` text: the name being typed and its filters."""

    text: str
    kinds: tuple[Kind, ...] = ()
    languages: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    call: CallQuery | None = None  # the text is a call-graph question

    @property
    def filtered(self) -> bool:
        return bool(self.kinds or self.languages or self.files)

    def request(self, limit: int) -> SearchRequest:
        """The fused search request of this query (the editor profile)."""
        from symfuse.ranking.search.picker import editor_request

        return editor_request(
            self.text,
            limit=limit,
            kinds=self.kinds,
            languages=self.languages,
            file_pattern=self.files,
        )


def parse_symbol_query(raw: str) -> SymbolQuery:
    """Split the filters off the name being typed."""
    words: list[str] = []
    kinds: list[Kind] = []
    langs: list[str] = []
    files: list[str] = []
    for token in raw.strip().lstrip("#").split():
        low = token.lower()
        head = next((k for k in _KIND_KEYS if low.startswith(k)), None)
        if head is not None and low != head:
            found = [kind_of(w) for w in token[len(head) :].split(",")]
            if found and all(k is not None for k in found):
                kinds.extend(k for k in found if k is not None)
                continue
        head = next((k for k in _LANG_KEYS if low.startswith(k)), None)
        if head is not None and low != head:
            words_of = [w for w in token[len(head) :].split(",") if w]
            named = [language_of(w) for w in words_of]
            langs.extend(
                n if n is not None else w.lower() for n, w in zip(named, words_of, strict=True)
            )
            continue
        head = next((k for k in _FILE_KEYS if low.startswith(k)), None)
        if head is not None and low != head:
            files.append(token[len(head) :])
            continue
        words.append(token)
    text = " ".join(words)
    return SymbolQuery(text, tuple(kinds), tuple(langs), tuple(files), call_query(text))
