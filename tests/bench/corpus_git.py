"""Benchmark sources that live only in public git repositories, pinned to a commit.

The languages no package registry on this machine ships (OCaml, R, Elm, Clojure,
CUDA) come from well-known GitHub projects. Each source is one repository at one
commit; its tree is written once under ``.corpus/src/github/`` with ``git archive``
from the first git directory found holding that commit:

1. ``.corpus/git/<owner>+<name>`` (a bare clone this module makes when needed),
2. the directories in ``SYMFUSE_BENCH_MIRRORS`` (``:``-separated; each holds
   ``<owner>+<name>/repo`` or ``<owner>+<name>``, the layout of a mirror cache),
3. else ``git clone --bare https://github.com/<owner>/<name>`` into the first.

A pinned commit keeps a recall row reproducible: the same files, the same tags.
Kept apart from corpus.py so that module stays about registries.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

import corpus as corpus_mod
from corpus import CORPUS, SOURCES, Log, Slice, Unavailable

GIT_DIRS = CORPUS / "git"
DEFAULT_MIRRORS = "/work/.mirror"


@dataclass(frozen=True, slots=True)
class GitSource:
    """One repository at one commit, and the folders of it a slice takes ("" = all)."""

    repo: str
    commit: str
    folders: tuple[str, ...] = ("",)

    @property
    def slug(self) -> str:
        return self.repo.replace("/", "+")


# language -> its sources; the first one alone makes the quick slice.
GIT_SOURCES: dict[str, tuple[GitSource, ...]] = {
    "ocaml": (
        GitSource("ocaml-community/yojson", "772d66b70c0ce1319f9ed9fe9087b4187f43ceb5"),
        GitSource("mirage/ocaml-uri", "46979cf180be86b2a8bd0f55767bef9f436780ec"),
    ),
    "r": (GitSource("tidyverse/dplyr", "d5e94e7fa8fd4a5f79c1a707d1842216bb4c691f", ("R",)),),
    "elm": (GitSource("elm/core", "65cea00afa0de03d7dda0487d964a305fc3d58e3", ("src",)),),
    "clojure": (
        GitSource("weavejester/compojure", "8a4758d28e8fcd28fa7610dca6e2908d039e6a4f"),
        GitSource("ring-clojure/ring", "75914ca942330ae6f8499b0ab9adda4664ad5f1b"),
    ),
    "cuda": (
        GitSource("NVIDIA/cuda-samples", "c94ff366aed18c797b8a85dfaac7817b0228b420", ("Samples",)),
    ),
    "make": (GitSource("redis/redis", "4f8cdc2a1ea53e42955af758aabffee67cb455dd"),),
    "markdown": (
        GitSource("redis/redis", "4f8cdc2a1ea53e42955af758aabffee67cb455dd"),
        GitSource("fortran-lang/fpm", "80b06defc4cad13dc26505d6aa12c07575446214"),
    ),
    "fortran": (GitSource("fortran-lang/fpm", "80b06defc4cad13dc26505d6aa12c07575446214"),),
    "sql": (GitSource("pgvector/pgvector", "e48241b4dcc045b18902914f668d03d1d399dfbe"),),
    "csharp": (GitSource("jbogard/MediatR", "8a64581e2570e7410c5f44835d9ea112beccbe6b", ("src",)),),
    "ruby": (GitSource("sinatra/sinatra", "cb22afd7902b566b6eaba6c4ea89739494a65d12"),),
    "php": (GitSource("slimphp/Slim", "038fd5713d5a41636fdff0e8dcceedecdd17fc17", ("Slim",)),),
    "kotlin": (GitSource("square/okio", "4164f2976ac7174f3d35d52150e8ffbdbe0acbec", ("okio",)),),
    "lua": (GitSource("luarocks/luarocks", "2d2cc8eff2f03c23d142f8059146fb241dcf56b5", ("src",)),),
    "bash": (GitSource("nvm-sh/nvm", "b17550a0b9ab691439815dfccc8b73e3a59fa103"),),
    "elixir": (
        GitSource("elixir-plug/plug", "a898c454a04ca5ffad306bd751a15c7ac9ff6927", ("lib",)),
    ),
    "haskell": (GitSource("haskell/aeson", "40b03e5334b0571b986528b635fb874a86b31725", ("src",)),),
    "julia": (
        GitSource("JuliaData/DataFrames.jl", "3924697ea6c02ac186a95b298a4e06b52e881b53", ("src",)),
    ),
    "perl": (GitSource("mojolicious/mojo", "b4de430651b722f560b1577da9018e3f402d96ab", ("lib",)),),
    "erlang": (
        GitSource("ninenines/cowboy", "5c8535f409aa2fd49deb355e8ee43d5c06eb1c90", ("src",)),
    ),
    "proto": (GitSource("grpc/grpc-proto", "99135b19189588fcc787acb84cff27991787473d"),),
    "objc": (GitSource("AFNetworking/AFNetworking", "d9f589cc2c1fe9d55eb5eea00558010afea7a41e"),),
}


def _names(language: str) -> tuple[str, ...]:
    """Endings of the language's files: its extensions and its file names (Makefile)."""
    from symfuse.indexer.files.languages import LANGUAGES

    spec = next(s for s in LANGUAGES if s.name == language)
    return spec.extensions + spec.filenames


def _mirror_dirs(source: GitSource) -> list[Path]:
    roots = os.environ.get("SYMFUSE_BENCH_MIRRORS", DEFAULT_MIRRORS).split(":")
    found = [GIT_DIRS / source.slug]
    for root in filter(None, roots):
        found += [Path(root) / source.slug / "repo", Path(root) / source.slug]
    return found


def _has_commit(git_dir: Path, commit: str) -> bool:
    if not git_dir.is_dir():
        return False
    done = subprocess.run(
        ["git", f"--git-dir={git_dir}", "cat-file", "-e", f"{commit}^{{commit}}"],
        capture_output=True,
        check=False,
    )
    return done.returncode == 0


def _git_dir(source: GitSource, log: Log) -> Path:
    """A git directory holding the source's commit, cloned when none does."""
    for candidate in _mirror_dirs(source):
        if _has_commit(candidate, source.commit):
            return candidate
    target = GIT_DIRS / source.slug
    if target.exists():
        shutil.rmtree(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    log(f"git clone --bare github.com/{source.repo}")
    corpus_mod._run(
        ["git", "clone", "--bare", "--quiet", f"https://github.com/{source.repo}", str(target)]
    )
    if not _has_commit(target, source.commit):
        raise Unavailable(f"github.com/{source.repo} has no commit {source.commit}")
    return target


def git_tree(source: GitSource, language: str, log: Log) -> Path:
    """The source's files of one language at its commit, written once under src/github/.

    Only that language's files are archived: a mirror may lack its largest blobs
    (documents, images), and ``git archive`` of the whole tree would then fail.
    """
    extensions = _names(language)
    target = SOURCES / "github" / f"{source.slug}-{source.commit[:12]}-{language}"
    marker = target / ".unpacked"
    if marker.exists():
        return target
    git_dir = _git_dir(source, log)
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    listed = corpus_mod._run(
        ["git", f"--git-dir={git_dir}", "ls-tree", "-r", "--name-only", source.commit]
    )
    paths = [p for p in listed.splitlines() if p.endswith(extensions)]
    if not paths:
        raise Unavailable(f"{source.repo}@{source.commit[:12]} has no {language} files")
    archive = subprocess.run(
        ["git", f"--git-dir={git_dir}", "archive", "--format=tar", source.commit, "--", *paths],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        raise Unavailable(f"git archive {source.repo}@{source.commit[:12]} failed")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(target, filter="data")
    marker.write_text(f"{source.repo}@{source.commit}")
    return target


def git_slice(language: str, quick: bool, log: Log) -> Slice:
    """The slice of a language whose sources are GIT_SOURCES[language]."""
    sources = GIT_SOURCES[language][:1] if quick else GIT_SOURCES[language]
    trees = [(s, git_tree(s, language, log)) for s in sources]
    recipe = f"{language} {[t.name for _, t in trees]} {[s.folders for s in sources]}"
    root, done = corpus_mod._slice_dir(language, quick, recipe)
    provenance = []
    for source, tree in trees:
        provenance.append(f"github {source.repo}@{source.commit[:12]} {' '.join(source.folders)}")
        if done:
            continue
        for folder in source.folders:
            dst = root / source.slug / folder
            n = corpus_mod._copy_matching(tree / folder, dst, _names(language))
            if n == 0:
                raise Unavailable(f"{source.repo} has no {language} files under {folder or '.'}")
    if not done:
        corpus_mod._finish(root, recipe)
    return Slice(language, root, tuple(provenance))
