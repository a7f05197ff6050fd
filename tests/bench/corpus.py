"""The benchmark corpus: real source for each language, fetched from package registries.

Everything lands under ``tests/bench/.corpus/`` (git-ignored) and is reused on
the next run: ``downloads/`` keeps the fetched archives, ``src/`` their
unpacked trees, ``slices/<language>[-quick]/`` the files one language's
benchmark indexes (a copy, so symfuse and ctags read exactly the same tree).

Sources, all reachable through the ordinary package clients:

| language   | source                                                                  |
| ---------- | ----------------------------------------------------------------------- |
| python     | Django 5.2 sdist (``pip download --no-binary :all:``), the whole tree    |
| javascript | ``npm pack`` eslint (lib/) and webpack (lib/): hand-written CommonJS     |
| typescript | ``npm pack`` rxjs (src/) and effect (src/)                               |
| go         | the standard library of Debian's ``golang-go`` (a few packages)          |
| rust       | Debian ``librust-*-dev`` crates under /usr/share/cargo/registry          |
| java       | JDK 17 sources, Debian ``openjdk-17-source`` (java.base subset)          |
| c          | sdists with C extensions: psycopg2, Pillow (src/), zstandard             |
| cpp        | Boost headers from Debian ``libboost-dev`` (a few libraries)             |
| cpp-headers| pybind11's sdist ``include/pybind11`` (header-only C++ in ``.h`` files)  |
| objc-headers| GNUstep Foundation headers from Debian ``libgnustep-base-dev``          |
| ocaml, r, elm, clojure, cuda, ... | GitHub repositories pinned to a commit (corpus_git.py) |

A source that cannot be fetched is reported as unavailable with the reason;
the benchmark goes on with the others.
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE / ".corpus"
DOWNLOADS = CORPUS / "downloads"
SOURCES = CORPUS / "src"
SLICES = CORPUS / "slices"

MAX_FILE_SIZE = 1_000_000  # symfuse's default limit: larger files are left out of slices

DJANGO_SPEC = "django==5.2.*"
NPM_JS = ("eslint@9.20.0", "webpack@5.98.0")
NPM_TS = ("rxjs@7.8.2", "effect@3.12.0")
GO_PACKAGES = ("net/http", "go", "encoding", "fmt", "strings", "bufio", "sort")
GO_PACKAGES_QUICK = ("strings", "sort", "bufio", "fmt")
RUST_CRATES = ("tokio", "syn", "regex-syntax", "serde", "hashbrown")
RUST_CRATES_QUICK = ("serde", "regex-syntax")
JAVA_DIRS = ("java/util/concurrent", "java/io", "java/net")
JAVA_DIRS_QUICK = ("java/io",)
C_SDISTS = (
    ("psycopg2==2.9.10", ("psycopg/*",)),
    ("pillow==11.1.0", ("src/*",)),
    ("zstandard==0.23.0", ("c-ext/*", "zstd/*")),
)
C_SDISTS_QUICK = C_SDISTS[:1]
BOOST_DIRS = ("beast", "container", "algorithm", "optional", "filesystem", "system")
BOOST_DIRS_QUICK = ("algorithm", "optional")
PYBIND11_SPEC = "pybind11==3.1.0"
GNUSTEP_DIRS = ("Foundation", "GNUstepBase")
GNUSTEP_DIRS_QUICK = ("Foundation",)

Log = Callable[[str], None]


class Unavailable(Exception):
    """A source could not be fetched or installed; the message says why."""


@dataclass(frozen=True, slots=True)
class Slice:
    """One language's benchmark tree."""

    language: str
    root: Path
    provenance: tuple[str, ...]


@dataclass(slots=True)
class Corpus:
    slices: list[Slice] = field(default_factory=list)
    unavailable: list[tuple[str, str]] = field(default_factory=list)
    django: Path | None = None


def _stderr(message: str) -> None:
    print(f"[corpus] {message}", file=sys.stderr, flush=True)


# --- installing what is missing ------------------------------------------------------------

_apt_state = {"updated": False}


def _run(cmd: list[str], *, cwd: Path | None = None, timeout: float = 1800) -> str:
    try:
        done = subprocess.run(
            cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
        )
    except FileNotFoundError as exc:
        raise Unavailable(f"{cmd[0]} is not installed") from exc
    except subprocess.TimeoutExpired as exc:
        raise Unavailable(f"{' '.join(cmd[:3])} ... timed out after {timeout:.0f} s") from exc
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise Unavailable(f"{' '.join(cmd[:4])} ... failed: {' | '.join(tail)}")
    return done.stdout


def apt_installed(package: str) -> bool:
    try:
        out = subprocess.run(
            ["dpkg-query", "-W", "-f=${Status}", package],
            capture_output=True,
            text=True,
            check=False,
        )
    except FileNotFoundError:
        return False
    return out.returncode == 0 and "install ok installed" in out.stdout


def ensure_apt(packages: Iterable[str], log: Log = _stderr) -> None:
    """Install Debian packages that are missing (``apt-get update`` once first)."""
    missing = [p for p in packages if not apt_installed(p)]
    if not missing:
        return
    if shutil.which("apt-get") is None:
        raise Unavailable(f"needs Debian packages {', '.join(missing)} and apt-get is missing")
    prefix: list[str] = []
    if os.geteuid() != 0:
        if shutil.which("sudo") is None:
            raise Unavailable(f"needs root to install {', '.join(missing)}")
        prefix = ["sudo", "-n"]
    env_cmd = [*prefix, "env", "DEBIAN_FRONTEND=noninteractive"]
    if not _apt_state["updated"]:
        log("apt-get update")
        _run([*env_cmd, "apt-get", "update"])
        _apt_state["updated"] = True
    log(f"apt-get install {' '.join(missing)}")
    _run([*env_cmd, "apt-get", "install", "-y", "--no-install-recommends", *missing])


def ensure_command(command: str, apt_package: str, log: Log = _stderr) -> str:
    path = shutil.which(command)
    if path is None:
        ensure_apt([apt_package], log)
        path = shutil.which(command)
    if path is None:
        raise Unavailable(f"{command} not found even after installing {apt_package}")
    return path


def pip_sdist(spec: str, log: Log = _stderr) -> Path:
    """The sdist archive of ``spec`` (``name==version``), downloaded once."""
    name = re.split(r"[=<>!~ ]", spec, maxsplit=1)[0].lower()
    dest = DOWNLOADS / "pypi" / hashlib.sha1(spec.encode()).hexdigest()[:10]
    found = sorted(dest.glob("*.tar.gz")) if dest.is_dir() else []
    if not found:
        dest.mkdir(parents=True, exist_ok=True)
        log(f"pip download {spec} (sdist)")
        _run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                spec,
                "--no-deps",
                "--no-binary",
                ":all:",
                "-d",
                str(dest),
            ]
        )
        found = sorted(dest.glob("*.tar.gz"))
    if not found:
        raise Unavailable(f"pip download {spec} gave no .tar.gz sdist")
    archive = found[-1]
    if not archive.name.lower().startswith(name.replace("-", "_")) and not (
        archive.name.lower().startswith(name)
    ):
        raise Unavailable(f"pip download {spec} gave an unexpected file {archive.name}")
    return archive


def npm_tarball(spec: str, log: Log = _stderr) -> Path:
    """The tarball ``npm pack`` makes for ``spec`` (``name@version``), fetched once."""
    dest = DOWNLOADS / "npm" / spec.replace("/", "__").replace("@", "_")
    found = sorted(dest.glob("*.tgz")) if dest.is_dir() else []
    if not found:
        npm = shutil.which("npm")
        if npm is None:
            ensure_apt(["npm"], log)
            npm = shutil.which("npm")
        if npm is None:
            raise Unavailable("npm is not installed")
        dest.mkdir(parents=True, exist_ok=True)
        log(f"npm pack {spec}")
        _run([npm, "pack", spec, "--silent", "--pack-destination", str(dest)], cwd=dest)
        found = sorted(dest.glob("*.tgz"))
    if not found:
        raise Unavailable(f"npm pack {spec} produced no tarball")
    return found[-1]


def unpack(archive: Path) -> Path:
    """Unpack a .tar.gz/.tgz once under src/; the directory holding its contents."""
    target = SOURCES / archive.name.removesuffix(".tar.gz").removesuffix(".tgz")
    marker = target / ".unpacked"
    if not marker.exists():
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
        with tarfile.open(archive) as tar:
            tar.extractall(target, filter="data")
        marker.write_text(archive.name)
    entries = [p for p in target.iterdir() if p.name != ".unpacked"]
    # sdists and npm tarballs hold one top folder (name-version/ or package/).
    return entries[0] if len(entries) == 1 and entries[0].is_dir() else target


# --- slices ------------------------------------------------------------------------------


def _wanted(path: str, extensions: tuple[str, ...]) -> bool:
    return path.endswith(extensions)


def _copy_matching(
    src: Path,
    dst: Path,
    extensions: tuple[str, ...],
    *,
    skip_dirs: frozenset[str] = frozenset({"testdata"}),
    patterns: tuple[str, ...] = (),
) -> int:
    """Copy files with these extensions from ``src`` into ``dst``, keeping the layout."""
    count = 0
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames[:] = sorted(d for d in dirnames if d not in skip_dirs and not d.startswith("."))
        rel_dir = Path(dirpath).relative_to(src)
        for name in sorted(filenames):
            rel = (rel_dir / name).as_posix()
            if not _wanted(name, extensions):
                continue
            if patterns and not any(fnmatch.fnmatch(rel, p) for p in patterns):
                continue
            source = Path(dirpath) / name
            if source.is_symlink() or source.stat().st_size > MAX_FILE_SIZE:
                continue
            target = dst / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
            count += 1
    return count


def _slice_dir(language: str, quick: bool, recipe: str) -> tuple[Path, bool]:
    """The slice folder and whether it is already complete for this recipe."""
    root = SLICES / (f"{language}-quick" if quick else language)
    marker = root / ".slice"
    if marker.exists() and marker.read_text() == recipe:
        return root, True
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    return root, False


def _finish(root: Path, recipe: str) -> None:
    (root / ".slice").write_text(recipe)


def _extensions(language: str) -> tuple[str, ...]:
    from symfuse.indexer.files.languages import LANGUAGES

    for spec in LANGUAGES:
        if spec.name == language:
            return spec.extensions
    raise KeyError(language)


def django_tree(log: Log = _stderr) -> Path:
    """The whole unpacked Django 5.2 source distribution."""
    return unpack(pip_sdist(DJANGO_SPEC, log))


def python_slice(quick: bool, log: Log) -> Slice:
    tree = django_tree(log)
    if quick:
        return Slice("python", tree / "django" / "db", (f"{tree.name}/django/db",))
    return Slice("python", tree, (f"{tree.name} (whole sdist tree)",))


def _npm_slice(language: str, specs: tuple[str, ...], folder: str, quick: bool, log: Log) -> Slice:
    chosen = specs[:1] if quick else specs
    recipe = f"{language} {chosen} {folder}"
    root, done = _slice_dir(language, quick, recipe)
    if not done:
        for spec in chosen:
            package = unpack(npm_tarball(spec, log))
            name = spec.rsplit("@", 1)[0].replace("/", "__")
            n = _copy_matching(package / folder, root / name, _extensions(language))
            if n == 0:
                raise Unavailable(f"{spec} has no {language} files under {folder}/")
        _finish(root, recipe)
    return Slice(language, root, tuple(f"npm {s} {folder}/" for s in chosen))


def javascript_slice(quick: bool, log: Log) -> Slice:
    return _npm_slice("javascript", NPM_JS, "lib", quick, log)


def typescript_slice(quick: bool, log: Log) -> Slice:
    return _npm_slice("typescript", NPM_TS, "src", quick, log)


def go_slice(quick: bool, log: Log) -> Slice:
    ensure_apt(["golang-go"], log)
    candidates = [Path("/usr/lib/go/src"), *sorted(Path("/usr/lib").glob("go*/src"))]
    src = next((p.resolve() for p in candidates if (p / "net" / "http").is_dir()), None)
    if src is None:
        raise Unavailable("golang-go is installed but no /usr/lib/go*/src/net/http was found")
    packages = GO_PACKAGES_QUICK if quick else GO_PACKAGES
    recipe = f"go {src} {packages}"
    root, done = _slice_dir("go", quick, recipe)
    if not done:
        for package in packages:
            _copy_matching(src / package, root / package, (".go",))
        _finish(root, recipe)
    return Slice("go", root, tuple(f"{src}/{p}" for p in packages))


def rust_slice(quick: bool, log: Log) -> Slice:
    crates = RUST_CRATES_QUICK if quick else RUST_CRATES
    registry = Path("/usr/share/cargo/registry")

    def crate_dir(crate: str) -> Path | None:
        found = sorted(
            p
            for p in registry.glob(f"{crate}-*")
            if p.name[len(crate) + 1 : len(crate) + 2].isdigit()
        )
        return found[-1] if found else None

    missing = [c for c in crates if crate_dir(c) is None]
    if missing:
        ensure_apt([f"librust-{c}-dev" for c in missing], log)
    dirs = [(c, crate_dir(c)) for c in crates]
    absent = [c for c, d in dirs if d is None]
    if absent:
        raise Unavailable(f"crates not found in {registry}: {', '.join(absent)}")
    recipe = f"rust {[str(d) for _, d in dirs]}"
    root, done = _slice_dir("rust", quick, recipe)
    if not done:
        for _, d in dirs:
            assert d is not None
            _copy_matching(d, root / d.name, (".rs",))
        _finish(root, recipe)
    return Slice("rust", root, tuple(str(d) for _, d in dirs))


def java_slice(quick: bool, log: Log) -> Slice:
    zips = [
        Path("/usr/lib/jvm/openjdk-17/lib/src.zip"),
        Path("/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip"),
    ]
    if not any(z.is_file() for z in zips):  # the jdk's src.zip is a dangling link without it
        ensure_apt(["openjdk-17-source"], log)
    archive = next((z for z in zips if z.is_file()), None)
    if archive is None:
        raise Unavailable("openjdk-17-source installed but no JDK 17 src.zip found")
    dirs = JAVA_DIRS_QUICK if quick else JAVA_DIRS
    recipe = f"java {archive.resolve()} {dirs}"
    root, done = _slice_dir("java", quick, recipe)
    if not done:
        with zipfile.ZipFile(archive) as zf:
            for info in zf.infolist():
                name = info.filename
                if not name.endswith(".java") or info.file_size > MAX_FILE_SIZE:
                    continue
                if not any(name.startswith(f"java.base/{d}/") for d in dirs):
                    continue
                target = root / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(zf.read(info))
        _finish(root, recipe)
    return Slice("java", root, tuple(f"JDK 17 src.zip java.base/{d}" for d in dirs))


def c_slice(quick: bool, log: Log) -> Slice:
    chosen = C_SDISTS_QUICK if quick else C_SDISTS
    recipe = f"c {chosen}"
    root, done = _slice_dir("c", quick, recipe)
    if not done:
        for spec, patterns in chosen:
            tree = unpack(pip_sdist(spec, log))
            _copy_matching(tree, root / tree.name, (".c", ".h"), patterns=patterns)
        _finish(root, recipe)
    return Slice("c", root, tuple(f"PyPI sdist {s} {' '.join(p)}" for s, p in chosen))


def cpp_slice(quick: bool, log: Log) -> Slice:
    boost = Path("/usr/include/boost")
    if not (boost / "version.hpp").is_file():
        ensure_apt(["libboost-dev"], log)
    if not (boost / "version.hpp").is_file():
        raise Unavailable("libboost-dev installed but /usr/include/boost/version.hpp is missing")
    dirs = BOOST_DIRS_QUICK if quick else BOOST_DIRS
    recipe = f"cpp {dirs} {(boost / 'version.hpp').stat().st_mtime_ns}"
    root, done = _slice_dir("cpp", quick, recipe)
    if not done:
        exts = _extensions("cpp")
        for d in dirs:
            _copy_matching(boost / d, root / "boost" / d, exts)
        _finish(root, recipe)
    return Slice("cpp", root, tuple(f"/usr/include/boost/{d}" for d in dirs))


def cpp_headers_slice(quick: bool, log: Log) -> Slice:
    """A header-only C++ library whose headers are ``.h``: pybind11's include/ tree."""
    recipe = f"cpp-headers {PYBIND11_SPEC}"
    root, done = _slice_dir("cpp-headers", quick, recipe)
    if not done:
        tree = unpack(pip_sdist(PYBIND11_SPEC, log))
        _copy_matching(tree / "include", root / "include", (".h",))
        _finish(root, recipe)
    return Slice("cpp-headers", root, (f"PyPI sdist {PYBIND11_SPEC} include/",))


def objc_headers_slice(quick: bool, log: Log) -> Slice:
    """Objective-C headers: GNUstep's Foundation (Debian ``libgnustep-base-dev``)."""
    gnustep = Path("/usr/include/GNUstep")
    if not (gnustep / "Foundation" / "NSObject.h").is_file():
        ensure_apt(["libgnustep-base-dev"], log)
    if not (gnustep / "Foundation" / "NSObject.h").is_file():
        raise Unavailable("libgnustep-base-dev installed but Foundation/NSObject.h is missing")
    dirs = GNUSTEP_DIRS_QUICK if quick else GNUSTEP_DIRS
    recipe = f"objc-headers {dirs} {(gnustep / 'Foundation' / 'NSObject.h').stat().st_mtime_ns}"
    root, done = _slice_dir("objc-headers", quick, recipe)
    if not done:
        for d in dirs:
            _copy_matching(gnustep / d, root / d, (".h",))
        _finish(root, recipe)
    return Slice("objc-headers", root, tuple(f"/usr/include/GNUstep/{d}" for d in dirs))


BUILDERS: dict[str, Callable[[bool, Log], Slice]] = {
    "python": python_slice,
    "javascript": javascript_slice,
    "typescript": typescript_slice,
    "go": go_slice,
    "rust": rust_slice,
    "java": java_slice,
    "c": c_slice,
    "cpp": cpp_slice,
    "cpp-headers": cpp_headers_slice,
    "objc-headers": objc_headers_slice,
}


def build(languages: Iterable[str], quick: bool, log: Log = _stderr) -> Corpus:
    """Fetch and slice what is asked; what fails is listed, never raised."""
    import corpus_git  # imports this module: the git sources build on its helpers

    corpus = Corpus()
    for language in languages:
        try:
            if language in BUILDERS:
                corpus.slices.append(BUILDERS[language](quick, log))
            else:
                corpus.slices.append(corpus_git.git_slice(language, quick, log))
        except Unavailable as exc:
            corpus.unavailable.append((language, str(exc)))
            log(f"{language}: unavailable: {exc}")
        except OSError as exc:
            corpus.unavailable.append((language, f"{type(exc).__name__}: {exc}"))
            log(f"{language}: unavailable: {exc}")
    try:
        corpus.django = django_tree(log)
    except (Unavailable, OSError) as exc:
        corpus.unavailable.append(("django", str(exc)))
    return corpus
