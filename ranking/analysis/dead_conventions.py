"""Definitions a toolchain or a framework calls by name, language by language.

No reference records these uses, so the dead-code report must know them:

- entry points the toolchain runs (:func:`is_entry_point`): Go's ``init`` and ``main``,
  and ``TestXxx``, ``BenchmarkXxx``, ``ExampleXxx``, ``FuzzXxx`` in ``_test.go`` files;
  Rust's ``#[test]`` and ``#[bench]`` functions (``#[tokio::test]`` too); never reported;
- hooks a framework calls (:func:`framework_hook`): a Go method whose name is a
  well-known interface's method (``String`` for ``fmt.Stringer``, ``MarshalJSON`` for
  ``json.Marshaler``: Go types satisfy interfaces without saying so); a decorator that
  registers the function (pytest fixtures, click and typer commands, web routes); a
  Java annotation or C# attribute that does (``@Test``, ``@Override``, ``[HttpGet]``,
  ``[Fact]``) or C#'s ``override``; the exports of a Next.js route file
  (``generateMetadata``, ``GET``, the default export); a member of a Rust ``impl Trait
  for Type`` block (:func:`rust_trait_impl`): the trait's callers reach it, and the
  compiler requires it;
- public API (:func:`public_api`): what users outside the workspace may import, which
  nothing inside needs to use: an exported Go name of an importable package (not
  ``internal/``, not ``package main``), a Rust ``pub`` item of a library, a Rust
  ``#[macro_export]`` macro.

Each comes with the reason the report shows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from symfuse.indexer.extract.texts import is_extension, short_name
from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.analysis import dead_runtime as runtime

HOOK = 0.1  # a framework or the language's interfaces call it by name
PUBLIC_API = 0.45  # public API of a library: below the default threshold (0.5)

_PDM_HOOK = re.compile(r"pdm_build_\w+$")
_GO_TEST_ENTRY = re.compile(r"(Test|Benchmark|Example|Fuzz)([A-Z0-9_].*)?")

# Methods of well-known Go interfaces, with the interface a caller reaches them through.
GO_INTERFACE_METHODS: dict[str, str] = {
    "String": "fmt.Stringer",
    "GoString": "fmt.GoStringer",
    "Format": "fmt.Formatter",
    "Error": "error",
    "Unwrap": "errors.Unwrap",
    "Is": "errors.Is",
    "As": "errors.As",
    "MarshalJSON": "json.Marshaler",
    "UnmarshalJSON": "json.Unmarshaler",
    "MarshalText": "encoding.TextMarshaler",
    "UnmarshalText": "encoding.TextUnmarshaler",
    "MarshalBinary": "encoding.BinaryMarshaler",
    "UnmarshalBinary": "encoding.BinaryUnmarshaler",
    "MarshalXML": "xml.Marshaler",
    "UnmarshalXML": "xml.Unmarshaler",
    "MarshalYAML": "yaml.Marshaler",
    "UnmarshalYAML": "yaml.Unmarshaler",
    "MarshalTOML": "toml.Marshaler",
    "UnmarshalTOML": "toml.Unmarshaler",
    "ServeHTTP": "http.Handler",
    "RoundTrip": "http.RoundTripper",
    "Header": "http.ResponseWriter",
    "WriteHeader": "http.ResponseWriter",
    "Flush": "http.Flusher",
    "Hijack": "http.Hijacker",
    "CloseNotify": "http.CloseNotifier",
    "Read": "io.Reader",
    "Write": "io.Writer",
    "Close": "io.Closer",
    "Seek": "io.Seeker",
    "ReadAt": "io.ReaderAt",
    "WriteAt": "io.WriterAt",
    "ReadFrom": "io.ReaderFrom",
    "WriteTo": "io.WriterTo",
    "WriteString": "io.StringWriter",
    "ReadByte": "io.ByteReader",
    "UnreadByte": "io.ByteScanner",
    "WriteByte": "io.ByteWriter",
    "ReadRune": "io.RuneReader",
    "UnreadRune": "io.RuneScanner",
    "Len": "sort.Interface",
    "Less": "sort.Interface",
    "Swap": "sort.Interface",
    "Push": "heap.Interface",
    "Pop": "heap.Interface",
    "Scan": "sql.Scanner",
    "Value": "driver.Valuer",
    "Deadline": "context.Context",
    "Done": "context.Context",
    "Err": "context.Context",
    "Timeout": "net.Error",
    "Temporary": "net.Error",
    "Network": "net.Addr",
}

# Methods of duck-typed protocols of Python's standard library, which code outside the
# workspace calls on any object it is given: a file object (``io``), the request and
# response ``http.cookiejar`` reads (``urllib.request.Request``), a logging handler.
PYTHON_PROTOCOL_METHODS: dict[str, str] = {
    **dict.fromkeys(
        (
            "read",
            "read1",
            "readinto",
            "readline",
            "readlines",
            "write",
            "writelines",
            "flush",
            "close",
            "fileno",
            "isatty",
            "seek",
            "tell",
            "truncate",
            "readable",
            "writable",
            "seekable",
        ),
        "a file object (io)",
    ),
    **dict.fromkeys(
        (
            "get_full_url",
            "get_type",
            "get_host",
            "get_origin_req_host",
            "has_header",
            "get_header",
            "add_header",
            "add_unredirected_header",
            "header_items",
            "is_unverifiable",
            "getheaders",
            "get_all",
            "info",
            "geturl",
        ),
        "urllib.request.Request / http.cookiejar",
    ),
    **dict.fromkeys(("emit", "handleError"), "logging.Handler"),
}

# Decorators (last dotted part) by which a framework registers the function it decorates.
REGISTERING_DECORATORS: dict[str, str] = {
    "fixture": "a pytest fixture: pytest passes it by parameter name",
    "hookimpl": "a pluggy hook implementation: the plugin manager calls it",
    "command": "a command-line command (click, typer): run from the shell",
    "group": "a command group (click, typer): run from the shell",
    "callback": "a command callback (typer): run from the shell",
    "result_callback": "a command callback (click): run from the shell",
    "route": "a web route: the framework calls it per request",
    "get": "a web route: the framework calls it per request",
    "post": "a web route: the framework calls it per request",
    "put": "a web route: the framework calls it per request",
    "patch": "a web route: the framework calls it per request",
    "delete": "a web route: the framework calls it per request",
    "websocket": "a web route: the framework calls it per request",
    "api_route": "a web route: the framework calls it per request",
    "receiver": "a signal receiver: the framework calls it on the signal",
    "task": "a task: a worker runs it by name",
    "shared_task": "a task: a worker runs it by name",
    "validator": "a validator: the model calls it",
    "field_validator": "a validator: the model calls it",
    "model_validator": "a validator: the model calls it",
    "root_validator": "a validator: the model calls it",
    "simple_tag": "a template tag: templates call it",
    "inclusion_tag": "a template tag: templates call it",
    "filter": "a template filter: templates call it",
}

# Java annotations and C# attributes that make the runtime or a framework call the member.
ANNOTATIONS: dict[str, str] = {
    **dict.fromkeys(
        (
            "Test",
            "ParameterizedTest",
            "RepeatedTest",
            "TestFactory",
            "TestTemplate",
            "BeforeEach",
            "AfterEach",
            "BeforeAll",
            "AfterAll",
            "Before",
            "After",
            "BeforeClass",
            "AfterClass",
            "Fact",
            "Theory",
            "TestMethod",
            "TestCase",
            "TestCaseSource",
            "SetUp",
            "TearDown",
            "OneTimeSetUp",
            "OneTimeTearDown",
            "TestInitialize",
            "TestCleanup",
            "ClassInitialize",
        ),
        "a test: the test runner calls it",
    ),
    "Override": "overrides a supertype's method: called through the supertype",
    **dict.fromkeys(
        (
            "GetMapping",
            "PostMapping",
            "PutMapping",
            "DeleteMapping",
            "PatchMapping",
            "RequestMapping",
            "HttpGet",
            "HttpPost",
            "HttpPut",
            "HttpDelete",
            "HttpPatch",
            "Route",
        ),
        "a web endpoint: the framework calls it per request",
    ),
    **dict.fromkeys(
        (
            "Bean",
            "PostConstruct",
            "PreDestroy",
            "EventListener",
            "Scheduled",
            "Subscribe",
            "JsonCreator",
            "Benchmark",
            "GlobalSetup",
            "ModelInitializer",
        ),
        "the framework calls it by its annotation",
    ),
}
_ANNOTATED_LANGUAGES = frozenset({"java", "kotlin", "csharp", "scala", "groovy"})
# what Scala's syntax calls: `Foo(x)`, `case Foo(a, b)`, `xs(i) = v`
_SCALA_SYNTAX = frozenset({"apply", "unapply", "unapplySeq", "update"})
# languages that write `override` before a member that implements or overrides one
_OVERRIDE_KEYWORD = frozenset({"csharp", "scala", "kotlin", "swift"})
_OVERRIDE = re.compile(r"(?:^|\s)override\s")
_IMPLICIT = re.compile(r"(?:^|\s)implicit\s+(?:final\s+|lazy\s+)*(?:def|val|object|class)\s")
# Methods Java serialization calls by name on a Serializable class.
JAVA_SERIALIZATION = frozenset(
    {
        "writeReplace",
        "readResolve",
        "readObject",
        "writeObject",
        "readObjectNoData",
        "serialVersionUID",
        "serialPersistentFields",
    }
)
# A C/C++ header in an include tree: its declarations are for whoever includes it.
_INCLUDE_TREE = re.compile(r"(^|/)(include|headers)/.*\.(h|hh|hpp|hxx)$")

_NEXT_ROUTE_FILE = re.compile(
    r"(^|/)(app/(.+/)?(page|layout|template|loading|error|global-error|not-found|default|route"
    r"|opengraph-image|twitter-image|icon|apple-icon|sitemap|robots|manifest)"
    r"|pages/.+|middleware|instrumentation)\.(js|jsx|ts|tsx|mjs)$"
)
# Exports Next.js (and the pages router) reads by name, wherever they are written.
NEXT_EXPORTS = frozenset(
    {
        "generateMetadata",
        "generateStaticParams",
        "generateViewport",
        "generateImageMetadata",
        "generateSitemaps",
        "getServerSideProps",
        "getStaticProps",
        "getStaticPaths",
    }
)
_SCRIPTS = frozenset({"javascript", "typescript", "tsx"})
_GO_RECEIVER = re.compile(r"^\s*func\s*\(\s*\w*\s*\*?\s*(\w+)")
# Attributes (last path part) by which Rust's test harness or a test crate runs a function.
RUST_TEST_ATTRIBUTES = frozenset({"test", "bench", "rstest", "quickcheck", "test_case", "proptest"})
_MACRO_EXPORT = re.compile(r"#\[\s*macro_export\b")
_RUST_ATTRIBUTE = re.compile(r"^\s*#!?\[\s*([\w:]+)")
# Attributes by which the runtime, the linker or a macro uses an item no code names.
RUST_RUNTIME_ATTRIBUTES: dict[str, str] = {
    "global_allocator": "#[global_allocator]: the runtime allocates through it",
    "panic_handler": "#[panic_handler]: the runtime calls it",
    "no_mangle": "#[no_mangle]: called from outside Rust by its symbol name",
    "export_name": "#[export_name]: called from outside Rust by its symbol name",
    "proc_macro": "a procedural macro: the compiler runs it",
    "proc_macro_derive": "a procedural macro: the compiler runs it",
    "proc_macro_attribute": "a procedural macro: the compiler runs it",
    "wasm_bindgen": "#[wasm_bindgen]: exported to JavaScript",
}


def is_entry_point(symbol: Symbol, attributes: set[str] | None = None) -> bool:
    """Whether the toolchain runs ``symbol`` by name (Go: ``init``, ``main``, tests;
    Rust: ``#[test]`` functions; ``attributes``: a Rust item's, :func:`rust_attributes`;
    Swift's ``deinit``; Ruby's ``initialize``, ``method_missing``, ``to_s``; operators
    (Ruby's, Scala's and Swift's symbolic methods, Kotlin's ``operator fun``);
    Haskell's instance methods, dispatched through their class;
    Scala's ``apply``/``unapply``/``update``, which call and pattern syntax run; C++'s
    destructors and operators, which scope ends and operator syntax run), or it is no
    code of its own: a Swift or Dart extension adds to a type, applied wherever that type
    is (nothing names it); a C or C++ macro's use before a block, which the grammar reads
    as a function with no type (fmt's ``FMT_CATCH(...) {}``, gtest's ``TEST(A, b) {}``),
    runs where it is written."""
    if symbol.language in _CPP and symbol.name.startswith(("~", "operator")):
        return symbol.kind in (Kind.FUNCTION, Kind.METHOD)  # `operator==` in a namespace too
    if symbol.language in _C_FAMILY and symbol.kind is Kind.FUNCTION:
        return symbol.name in _C_ENTRIES or _macro_use(symbol)
    if symbol.language in _CPP and symbol.kind is Kind.METHOD:
        return False
    if symbol.language == "rust" and symbol.kind in (Kind.FUNCTION, Kind.METHOD):
        return bool((attributes or set()) & RUST_TEST_ATTRIBUTES)
    if runtime.runs_it(symbol) or runtime.swift_manifest(symbol):
        return True
    if symbol.language == "haskell":  # its methods are a class's or an instance's
        return symbol.kind is Kind.METHOD
    if symbol.language == "csharp" and is_main(symbol):
        return True
    if symbol.language == "scala" and symbol.name in _SCALA_SYNTAX:
        return True
    if symbol.language in ("swift", "dart"):
        return symbol.name == "deinit" or is_extension(symbol)
    if symbol.language != "go" or symbol.kind is not Kind.FUNCTION:
        return False
    if symbol.name in ("init", "main"):
        return True
    return symbol.file.endswith("_test.go") and _GO_TEST_ENTRY.fullmatch(symbol.name) is not None


_CPP = frozenset({"cpp", "cuda"})
_C_FAMILY = frozenset({"c", "cpp", "cuda", "objc"})
_C_ENTRIES = frozenset({"wmain", "WinMain", "wWinMain", "DllMain"})  # Windows calls them
_MACRO_USE = re.compile(r"^[A-Z][A-Z0-9_]*\(")  # an upper-case name, no type before it


def _macro_use(symbol: Symbol) -> bool:
    return (
        symbol.signature.startswith(symbol.name) and _MACRO_USE.match(symbol.signature) is not None
    )


def is_main(symbol: Symbol) -> bool:
    """A program's entry method: Java's, Kotlin's or Scala's ``main``, C#'s static ``Main``."""
    if symbol.kind not in (Kind.METHOD, Kind.FUNCTION):
        return False
    if symbol.language == "csharp":
        return symbol.name == "Main" and re.search(r"\bstatic\b", symbol.signature) is not None
    return symbol.name == "main"


def framework_hook(symbol: Symbol, exported: bool) -> str | None:
    """Why a framework or an interface calls ``symbol`` by name, or None.
    ``exported``: a JavaScript/TypeScript definition written with ``export``."""
    if symbol.language == "go" and symbol.kind is Kind.METHOD:
        interface = GO_INTERFACE_METHODS.get(symbol.name)
        if interface is not None:
            return f"{symbol.name} is a method of {interface}: called through the interface"
    for decorator in symbol.decorators:
        name = short_name(decorator.lstrip("@[").split("(", 1)[0].rstrip("]"))
        if symbol.language in _ANNOTATED_LANGUAGES and name in ANNOTATIONS:
            return f"@{name}: {ANNOTATIONS[name]}"
        if symbol.language == "python" and name in REGISTERING_DECORATORS:
            return REGISTERING_DECORATORS[name]
    if symbol.language in _ANNOTATED_LANGUAGES and symbol.name in JAVA_SERIALIZATION:
        return f"{symbol.name}: Java serialization calls it by name"
    if symbol.language in _OVERRIDE_KEYWORD and _OVERRIDE.search(symbol.signature):
        return ANNOTATIONS["Override"]
    if symbol.language == "scala" and _IMPLICIT.search(symbol.signature):
        return "an implicit definition: the compiler applies it where a type asks for it"
    if _PDM_HOOK.match(symbol.name) and symbol.file.rsplit("/", 1)[-1] == "pdm_build.py":
        return f"{symbol.name} in pdm_build.py: a build hook PDM's backend calls by name"
    if symbol.language in _SCRIPTS and exported and symbol.parent is None:
        if _NEXT_ROUTE_FILE.search(symbol.file):
            return "an export of a Next.js route file: the framework calls it"
        if symbol.name in NEXT_EXPORTS:
            return f"{symbol.name}: Next.js calls it by name"
    return None


def rust_attributes(symbol: Symbol, above: Sequence[str]) -> set[str]:
    """The attributes of a Rust item (last path part: ``tokio::test`` -> ``test``): those
    the index kept, and the ``#[...]`` lines just ``above`` it (read up to the first line
    that is neither an attribute, a comment nor blank)."""
    found = {short_name(d.split("(", 1)[0]) for d in symbol.decorators}
    for line in reversed(above):
        match = _RUST_ATTRIBUTE.match(line)
        if match is not None:
            found.add(match.group(1).rpartition("::")[2])
        elif line.strip() and not line.lstrip().startswith("//"):
            break
    return found


def rust_trait_impl(symbol: Symbol, impls: list[Symbol]) -> str | None:
    """The reason a member of a Rust ``impl Trait for Type`` block is used: ``impls``
    are its file's impl blocks (an associated ``const`` or ``type`` has no parent, so
    the block is found by its span). None for anything else."""
    if symbol.language != "rust":
        return None
    for block in impls:
        inside = block.line < symbol.line and symbol.end_line <= block.end_line
        if block.implements and (symbol.parent == block.symbol_id or inside):
            trait = block.implements[0]
            return f"implements {trait} for {block.name}: called through the trait"
    return None


def rust_impls(symbols: list[Symbol]) -> list[Symbol]:
    """The ``impl Trait for Type`` blocks among one file's definitions."""
    return [
        s
        for s in symbols
        if s.language == "rust" and s.kind is Kind.OBJECT and s.signature.startswith("impl")
    ]


def public_api(symbol: Symbol, first_line: str, preceding: str = "") -> str | None:
    """Why users outside the workspace may use ``symbol`` (a library's public API), or
    None. ``first_line``: the first line of its file (Go's ``package`` clause);
    ``preceding``: the lines just above the definition (Rust attributes)."""
    if symbol.language == "go" and symbol.name[:1].isupper():
        internal = "internal/" in f"/{symbol.file}" or symbol.file.endswith("_test.go")
        if not internal and first_line.split("//", 1)[0].split() != ["package", "main"]:
            return "an exported Go name of an importable package: other modules may use it"
    if symbol.language == "rust" and re.match(r"\s*pub\s", symbol.signature):
        binary = symbol.file.endswith("/main.rs") or "/bin/" in f"/{symbol.file}"
        if not binary:
            return "pub in a library crate: other crates may use it"
    if symbol.language in ("c", "cpp", "objc") and _INCLUDE_TREE.search(symbol.file):
        return "declared in a header of an include tree: whoever includes it may use it"
    if symbol.language == "rust" and symbol.kind is Kind.MACRO and _MACRO_EXPORT.search(preceding):
        return "#[macro_export]: other crates may use it"
    return None


def go_exported_method(symbol: Symbol) -> bool:
    """An exported Go method: it may satisfy an interface of a dependency (``pflag.Value``,
    ``slog.Handler``), which Go types do without saying so, and no reference records."""
    return symbol.language == "go" and symbol.kind is Kind.METHOD and symbol.name[:1].isupper()


def go_receiver(symbol: Symbol) -> str | None:
    """The type a Go method is declared on (``func (s *Square) Area()`` -> ``Square``)."""
    if symbol.language != "go" or symbol.kind is not Kind.METHOD:
        return None
    found = _GO_RECEIVER.match(symbol.signature)
    return found.group(1) if found else None


TEST_HOOKS = frozenset(
    {
        "setUp",
        "tearDown",
        "setUpClass",
        "tearDownClass",
        "setUpTestData",
        "setUpModule",
        "tearDownModule",
        "asyncSetUp",
        "asyncTearDown",
        "setup_method",
        "teardown_method",
        "setup_class",
        "teardown_class",
        "setup_module",
        "teardown_module",
        "load_tests",
    }
)


def is_test_code(symbol: Symbol) -> bool:
    """Test functions, test classes, hooks a test runner calls by name, fixtures files."""
    name = symbol.name
    return (
        name.startswith(("test", "Test", "pytest_"))
        or (symbol.kind.is_type and name.endswith(("Test", "Tests", "TestCase")))
        or name in TEST_HOOKS
        or symbol.file.endswith("conftest.py")
    )
