"""Reading files (issue 19 item 5) through the SDK's ClientSession: ``read_file`` on any
text file under the roots, confined, paged by ``max_tokens``; ``search_text`` over the
text files beside the code, and ``code_only``."""

from __future__ import annotations

import os
from pathlib import Path

import anyio

from tests.support.cli import write_tree
from tests.support.mcp import Workspace, call, call_error, mcp_session

SAFETY = 30.0  # seconds: only turns paging that never ends into a failure
CHANGELOG = "".join(f"- change number {i}: {'detail ' * 8}\n" for i in range(1, 301))


def docs_workspace(tmp_path: Path) -> Workspace:
    root = write_tree(
        tmp_path / "ws",
        {
            "app.py": 'def run():\n    return "flag_needle"\n',
            "CHANGELOG.txt": CHANGELOG,
            "docs/guide.rst": "Guide\n=====\n\nSet flag_needle to true.\n",
            "config/settings.json": '{"flag_needle": true}\n',
            "pyproject.toml": '[tool.app]\nflag_needle = "yes"\n',
            "README.md": "# App\n\nThe flag_needle option.\n",
            "build/out.txt": "flag_needle in a skipped folder\n",
            "private.txt": "flag_needle ignored by git\n",
            ".gitignore": "private.txt\n",
        },
    )
    (root / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (root / "latin1.txt").write_bytes("caf\xe9\n".encode("latin-1"))
    os.symlink("/etc/hostname", root / "escape.txt")
    home = tmp_path / "home"
    home.mkdir()
    return Workspace(root, tmp_path / "index", home, tmp_path / "server-stderr.log")


async def test_read_file_reads_any_text_file_and_line_ranges(tmp_path: Path) -> None:
    ws = docs_workspace(tmp_path)
    async with mcp_session(ws) as session:
        whole = await call(session, "read_file", path="docs/guide.rst")
        ranged = await call(session, "read_file", path="CHANGELOG.txt:10-12")
        by_fields = await call(
            session, "read_file", path="CHANGELOG.txt", start_line=10, end_line=12
        )
        toml = await call(session, "read_file", path="pyproject.toml", output_format="toon")
    assert whole["content"] == "Guide\n=====\n\nSet flag_needle to true."
    assert (whole["start_line"], whole["end_line"], whole["total_lines"]) == (1, 4, 4)
    assert ranged["content"].split("\n")[0].startswith("- change number 10:")
    assert (ranged["start_line"], ranged["end_line"], ranged["total_lines"]) == (10, 12, 300)
    shown = ("file", "start_line", "end_line", "total_lines", "content")
    assert {k: by_fields[k] for k in shown} == {k: ranged[k] for k in shown}
    assert toml["file"] == "pyproject.toml"


async def test_read_file_pages_by_max_tokens_to_the_end(tmp_path: Path) -> None:
    ws = docs_workspace(tmp_path)
    read: list[str] = []
    async with mcp_session(ws) as session:
        offset = 0
        with anyio.fail_after(SAFETY):
            while True:
                page = await call(
                    session, "read_file", path="CHANGELOG.txt", offset=offset, max_tokens=500
                )
                read.extend(page["content"].split("\n"))
                if not page["truncated"]:
                    break
                assert page["next_offset"] > offset
                assert page["start_line"] == offset + 1
                offset = page["next_offset"]
    assert offset > 0
    assert "\n".join(read) + "\n" == CHANGELOG


async def test_read_file_refuses_escapes_binaries_and_other_encodings(tmp_path: Path) -> None:
    ws = docs_workspace(tmp_path)
    async with mcp_session(ws) as session:
        up = await call_error(session, "read_file", path="../index/anything")
        link = await call_error(session, "read_file", path="escape.txt")
        absolute = await call_error(session, "read_file", path="/etc/hostname")
        binary = await call_error(session, "read_file", path="image.png")
        latin1 = await call_error(session, "read_file", path="latin1.txt")
        missing = await call_error(session, "read_file", path="nope.md")
        folder = await call_error(session, "read_file", path="docs")
    for message in (up, link, absolute):
        assert "outside the workspace" in message
    assert "binary file" in binary
    assert "not UTF-8" in latin1
    assert "nope.md" in missing
    assert "directory" in folder
    assert "it holds guide.rst" in folder  # what is in it, for the next call


async def test_search_text_reads_text_files_beside_the_code(tmp_path: Path) -> None:
    ws = docs_workspace(tmp_path)
    async with mcp_session(ws) as session:
        every = await call(session, "search_text", pattern="flag_needle")
        code = await call(session, "search_text", pattern="flag_needle", code_only=True)
        json_only = await call(session, "search_text", pattern="flag_needle", language="json")
    assert sorted(hit["file"] for hit in every["hits"]) == [
        "README.md",
        "app.py",
        "config/settings.json",
        "docs/guide.rst",
        "pyproject.toml",
    ]  # build/ is a skipped folder and private.txt is ignored, as the indexer does
    assert [hit["file"] for hit in code["hits"]] == ["app.py"]
    assert [hit["file"] for hit in json_only["hits"]] == ["config/settings.json"]
