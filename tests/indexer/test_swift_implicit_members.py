"""Swift's implicit members (`.accept("x")`, `.retry`, `.defaultUserAgent`): a static
member or an enum case of the type the context expects. Before, none was read: Alamofire's
`HTTPHeader.accept` and its enum cases had no usage. An instance member of the name is
never one (`Result`'s `success` property is no `.success(value)`)."""

from __future__ import annotations

from pathlib import Path

from symfuse.ranking.query import operations
from symfuse.ranking.query.requests import UsagesRequest
from tests.support.index import index_of_tree

FILES = {
    "Source/HTTPHeader.swift": "public struct HTTPHeader {\n"
    "    public static func accept(_ value: String) -> HTTPHeader { HTTPHeader() }\n"
    "    public static let defaultUserAgent: HTTPHeader = HTTPHeader()\n}\n",
    "Source/RetryPolicy.swift": "public enum RetryResult {\n    case retry\n"
    "    case doNotRetry\n}\n",
    "Source/Result.swift": "extension Result {\n    var success: Success? { nil }\n}\n",
    "Source/Session.swift": "func headers() -> [HTTPHeader] {\n"
    '    [.accept("application/json"), .defaultUserAgent]\n}\n\n'
    "func decide(_ ok: Bool) -> RetryResult {\n    ok ? .retry : .doNotRetry\n}\n\n"
    "func wrap(_ v: Int) -> Result<Int, Error> {\n    .success(v)\n}\n",
}


def _lines(tmp_path: Path, symbol_id: str) -> list[int]:
    index = index_of_tree(tmp_path, FILES)
    found = operations.usages(index, UsagesRequest(target=symbol_id, min_confidence=0.0))
    return [u.line for u in found.usages]


def test_an_implicit_member_is_a_static_member_or_a_case(tmp_path: Path) -> None:
    assert _lines(tmp_path / "a", "Source/HTTPHeader.swift::HTTPHeader.accept#method") == [2]
    header = "Source/HTTPHeader.swift::HTTPHeader.defaultUserAgent#property"
    assert _lines(tmp_path / "b", header) == [2]
    case = "Source/RetryPolicy.swift::RetryResult.doNotRetry#enum_member"
    assert _lines(tmp_path / "c", case) == [6]
    assert _lines(tmp_path / "d", "Source/Result.swift::Result.success#property") == []
