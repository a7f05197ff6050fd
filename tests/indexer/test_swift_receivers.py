"""Swift receivers: a parameter's or a property's declared type, or the constructor call
that initialises it (`let session = Session()`), says what a method called on it belongs
to, rather than every method of that name (Alamofire's `request` has dozens); an
`extension` is more of a type, not a declaration of it (`extension String` declares no
`String` of the workspace), and its methods, in any folder, are the type's."""

from __future__ import annotations

import pytest

from symfuse.indexer.index import Index
from tests.support.index import index_of_tree, links

FILES = {
    "Source/Session.swift": """\
open class Session {
    open func request(_ url: String) -> Int { 1 }
    open func download(_ url: String) -> Int { 2 }
}
""",
    "Source/Extensions.swift": """\
extension Session {
    func upload(_ url: String) -> Int { 5 }
}
extension String {
    var asURL: Int { 6 }
}
""",
    # namesakes a guess by name would split with
    "Source/Other.swift": """\
class Other {
    func request(_ a: Int) -> Int { 3 }
    func download(_ a: Int) -> Int { 4 }
}
""",
    "Tests/Client.swift": """\
final class Client {
    let session: Session
    let backup = Session()

    init(session: Session) { self.session = session }

    func viaProperty() { session.request("a") }
    func viaInitialised() { backup.download("b") }
    func viaParameter(with other: Session?) { other?.download("c") }
    func viaLocal() {
        let local = Session()
        local.request("d")
    }
    func viaOutsideType(url: URL) { url.download("e") }
    func viaExtension(session: Session) { session.upload("f") }
    func named(text: String) -> Session? { nil }
}
""",
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_tree(tmp_path_factory.mktemp("swift_receivers"), FILES)


@pytest.mark.parametrize(
    ("method", "reached"),
    [
        ("viaProperty", "Session.request"),  # `let session: Session`
        ("viaInitialised", "Session.download"),  # `let backup = Session()`
        ("viaParameter", "Session.download"),  # `with other: Session?`
        ("viaLocal", "Session.request"),  # `let local = Session()`
        ("viaExtension", "Session.upload"),  # an extension's, in Tests/ and Source/
    ],
)
def test_a_typed_receiver_reaches_its_type_s_method(
    index: Index, method: str, reached: str
) -> None:
    found = links(index, "Tests/Client.swift", f"Tests/Client.swift::Client.{method}#method")
    methods = {dst.split("::")[1]: w for dst, w in found.items() if dst.endswith("#method")}
    assert list(methods) == [f"{reached}#method"]
    assert methods[f"{reached}#method"] >= 0.8


def test_a_receiver_of_an_outside_type_reaches_no_namesake(index: Index) -> None:
    found = links(index, "Tests/Client.swift", "Tests/Client.swift::Client.viaOutsideType#method")
    assert not [dst for dst in found if dst.endswith("download#method")]


def test_an_extension_is_no_declaration_of_its_type(index: Index) -> None:
    """`Session` is the class alone (not split with its extension), `String` nothing."""
    found = links(index, "Tests/Client.swift", "Tests/Client.swift::Client.named#method")
    assert found == {"Source/Session.swift::Session#class": 0.8}


def test_swift_6_words_leave_the_type_whole() -> None:
    """Alamofire's ``Protected``: ``private nonisolated(unsafe) var value: Value`` was a
    syntax error and no property (the value the wrapper protects); a ``sending``
    parameter and ``.success(())`` were syntax errors too, each file a problem."""
    from symfuse.indexer.extract.tags import extract

    source = b"""final class Protected<Value> {
    private let lock = UnfairLock()
    private nonisolated(unsafe) var value: Value

    func read<U>(_ closure: (Value) throws -> U) rethrows -> U {
        try lock.around { try closure(self.value) }
    }

    func perform(_ event: sending @escaping (Value) -> Void) {
        event(value)
    }

    func validate() -> Result<Void, Error> {
        guard !isEmpty else { return .success(()) }
        return finish(Result(value: (), error: nil))
    }
}
"""
    found = extract("Source/Core/Protected.swift", ".", "swift", source)
    assert found.problems == []
    fqns = [s.fqn for s in found.symbols]
    assert fqns.count("Protected") == 1, fqns
    assert {"Protected.value", "Protected.read", "Protected.perform", "Protected.validate"} <= set(
        fqns
    )
    assert {"finish", "around"} <= {r.name for r in found.references if r.kind.value == "call"}


def test_typed_throws_and_a_wrappers_empty_arguments_are_read() -> None:
    """swift-argument-parser: ``throws(CommandError)`` (Swift 6's typed throws) and
    ``@Option() var`` (a property wrapper with empty arguments) were syntax errors, each
    file a problem and the statements around them read in part."""
    from symfuse.indexer.extract.tags import extract

    source = b"""struct CommandParser {
    @Option() var generateCompletionScript: String
    @Flag var verbose = false

    mutating func parse(arguments: [String]) throws(CommandError) -> ParsableCommand {
        try descend(arguments)
    }

    func run() async throws(ParserError) {
        try await finish(())
    }
}
"""
    found = extract("Sources/CommandParser.swift", ".", "swift", source)
    assert found.problems == []
    fqns = {s.fqn for s in found.symbols}
    assert {"CommandParser.generateCompletionScript", "CommandParser.parse"} <= fqns
    assert {"CommandParser.run", "CommandParser.verbose"} <= fqns
    assert {"descend", "finish"} <= {r.name for r in found.references if r.kind.value == "call"}
