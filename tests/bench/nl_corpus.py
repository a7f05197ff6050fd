"""What nl_mine.py and nl_bench.py share: the mined repositories, their mirrors and snapshots.

Each repository is read from a bare git mirror (``github:owner/name`` fetched to
``<mirrors>/owner+name/repo``; ``--mirrors`` or ``SYMFUSE_MIRRORS`` say where, default
``/work/.mirror``). Its pinned snapshot commit is written out with ``git archive`` under
``tests/bench/.corpus/nl/<name>-<commit[:12]>/<name>/`` (git-ignored) and indexed with
symfuse's defaults beside it, in ``.../index``. Nothing here is needed by the tests.
"""

from __future__ import annotations

import os
import re
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind, Symbol
from symfuse.indexer.update.workspace import update_index

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "nl_mined.json"
CORPUS = HERE / ".corpus" / "nl"
DEFAULT_MIRRORS = Path(os.environ.get("SYMFUSE_MIRRORS", "/work/.mirror"))

# What counts as a document (for both rankers) and as an expected answer: definitions
# that have a body a commit can change. Fields, variables, constants and enum members
# are left out (a one-line declaration has no behaviour to describe), and so are C's
# object-like macros (`#define MAX_DEPTH 256`: constants by another name).
DOCUMENT_KINDS: frozenset[Kind] = Kind.CALLABLES | Kind.TYPES
_OBJECT_MACRO = re.compile(r"^#\s*define\s+\w+(?![\w(])")


def is_document(symbol: Symbol) -> bool:
    """Whether a definition is a document of the benchmark (and may be an expected answer)."""
    if symbol.kind not in DOCUMENT_KINDS:
        return False
    return symbol.kind is not Kind.MACRO or not _OBJECT_MACRO.match(symbol.signature)


@dataclass(frozen=True, slots=True)
class Repo:
    """A mined repository: ``snapshot`` is the pinned commit S the benchmark indexes."""

    name: str
    github: str
    language: str
    snapshot: str

    def mirror(self, mirrors: Path) -> Path:
        """The bare git directory the ``fetch`` tool makes of ``github:owner/name``."""
        return mirrors / self.github.replace("/", "+") / "repo"

    @property
    def slot(self) -> Path:
        return CORPUS / f"{self.name}-{self.snapshot[:12]}"

    @property
    def root(self) -> Path:
        """Where snapshot S is written out (the directory indexed)."""
        return self.slot / self.name

    @property
    def index_dir(self) -> Path:
        """The cached index; ``SYMFUSE_NL_INDEXES=DIR`` puts it elsewhere (a ranking file's
        word model is retrained only when enough files changed: two codes compared need a
        folder each)."""
        elsewhere = os.environ.get("SYMFUSE_NL_INDEXES")
        return Path(elsewhere) / self.slot.name if elsewhere else self.slot / "index"


# Pinned snapshots: the newest commit of each mirror when the set was mined. Chosen for
# descriptive commit subjects, mostly squash-merged or linear history (the miner walks
# the first-parent line and skips merges), and a few hundred source files each.
REPOS: tuple[Repo, ...] = (
    Repo("click", "pallets/click", "python", "2c8cd3ac958a7eb316d67f2d316c27086c4c0369"),
    Repo("black", "psf/black", "python", "8947c48ef2077c3a301b03c1e814dc2e3f78436e"),
    Repo("gin", "gin-gonic/gin", "go", "dcaa4296d111981ffb31ac3eba90bb63e1eb5ab9"),
    Repo("ripgrep", "BurntSushi/ripgrep", "rust", "3fce3b5bb0236da2df6d99672afb8a719642eca7"),
    Repo("jsoup", "jhy/jsoup", "java", "46b620860af930eedc193a705eaf7cea5aec89a6"),
    Repo("axios", "axios/axios", "javascript", "23a25af0688d1db2c396deb09229d2271cc24f6c"),
    Repo("jq", "jqlang/jq", "c", "579e6f76cffd7643ba4002a2c3618a5ea710589a"),
    Repo("redis", "redis/redis", "c", "4f8cdc2a1ea53e42955af758aabffee67cb455dd"),
)
BY_NAME = {repo.name: repo for repo in REPOS}


class MirrorMissing(RuntimeError):
    """The repository's mirror (or its snapshot commit) is not on this machine."""


def materialise(repo: Repo, mirrors: Path) -> Path:
    """Snapshot S written out under tests/bench/.corpus/nl (once; a marker says it is whole)."""
    done = repo.slot / ".complete"
    if done.exists():
        return repo.root
    git_dir = repo.mirror(mirrors)
    if not git_dir.is_dir():
        raise MirrorMissing(f"{repo.name}: no mirror at {git_dir} (fetch github:{repo.github})")
    repo.root.mkdir(parents=True, exist_ok=True)
    archive = subprocess.Popen(
        ["git", "--git-dir", str(git_dir), "archive", "--format=tar", repo.snapshot],
        stdout=subprocess.PIPE,
    )
    assert archive.stdout is not None
    with tarfile.open(fileobj=archive.stdout, mode="r|") as tar:
        tar.extractall(repo.root, filter="data")
    if archive.wait() != 0:
        raise MirrorMissing(f"{repo.name}: git archive {repo.snapshot} failed in {git_dir}")
    done.touch()
    return repo.root


def index_snapshot(repo: Repo) -> Index:
    """symfuse's index of snapshot S with default settings (incremental after the first run)."""
    config = IndexConfig(roots=(repo.root,), index_dir=repo.index_dir, progress=False)
    index, _ = update_index(config)
    return index


def documents(index: Index) -> list[Symbol]:
    """The definitions both rankers are measured on, in a stable order."""
    return sorted((s for s in index.symbols if is_document(s)), key=lambda s: s.symbol_id)


# Code a reader would not call "the implementation": never an expected answer (it stays
# in the index as a document). Test, example, benchmark and fixture conventions of the
# mined languages, plus vendored copies of other projects.
_ASIDE_DIR_TEXT = """
test tests testing __tests__ spec specs testdata fixtures example examples
bench benches benchmark benchmarks fuzz deps vendor third_party
"""
_ASIDE_DIRS = frozenset(_ASIDE_DIR_TEXT.split())
_ASIDE_FILES = re.compile(
    r"(^test_.*\.py$|_test\.(py|go|c)$|^conftest\.py$|\.(test|spec)\.[cm]?[jt]sx?$"
    r"|Tests?\.java$|^test[-_].*\.c$)"
)


def is_aside(symbol: Symbol) -> bool:
    """Whether a definition is test, example, benchmark, fuzzing or vendored code: by its
    file's path, or by a ``test``/``tests`` module around it (Rust's ``mod tests``)."""
    *folders, name = symbol.file.split("/")
    if any(folder in _ASIDE_DIRS for folder in folders) or _ASIDE_FILES.search(name):
        return True
    qualified = symbol.symbol_id.split("::", 1)[1].rsplit("#", 1)[0]
    return any(part in ("test", "tests") for part in qualified.split(".")[:-1])
