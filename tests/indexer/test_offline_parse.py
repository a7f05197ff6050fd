"""Every supported language parses with networking unavailable.

tree-sitter-language-pack 1.x downloads grammars on first use; 0.13.0 bundles
them. This test pins that down: a child interpreter whose sockets refuse to
connect (a ``sitecustomize`` patched in before anything else is imported)
loads every grammar and query and extracts each language's fixture.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from symfuse.indexer.files import languages
from tests.support.paths import FIXTURES

pytestmark = pytest.mark.slow  # a Python process with the network blocked

LANGUAGES = FIXTURES / "languages"

_SITECUSTOMIZE = '''
import socket


class NetworkBlocked(OSError):
    """Raised by every attempt to reach the network in this interpreter."""


def _refuse(*args, **kwargs):
    raise NetworkBlocked("network access blocked by test_offline_parse")


socket.socket.connect = _refuse
socket.socket.connect_ex = _refuse
socket.socket.sendto = _refuse
socket.create_connection = _refuse
socket.getaddrinfo = _refuse
'''

_CHILD = """
import json
import socket
import sys

# the block is in force: connecting anywhere fails with our error, not a refusal
try:
    socket.create_connection(("127.0.0.1", 9), timeout=1)
except OSError as exc:
    blocked = type(exc).__name__ == "NetworkBlocked"
else:
    blocked = False

from symfuse.indexer.files import languages
from symfuse.indexer.extract.tags import extract

results = {}
for name, sample in json.loads(sys.argv[1]).items():
    source = open(sample, "rb").read()
    tree = languages.parser(name).parse(source)
    extraction = extract(f"{name}/sample", "offline", name, source)
    results[name] = {
        "root": tree.root_node.type,
        "symbols": len(extraction.symbols),
        "references": len(extraction.references),
    }
print(json.dumps({"blocked": blocked, "results": results}))
"""


def _samples() -> dict[str, str]:
    samples: dict[str, str] = {}
    for name in sorted(languages.supported()):
        found = sorted((LANGUAGES / name).glob("sample.*"))
        assert found, f"no fixture to parse for {name}"
        samples[name] = str(found[0])
    return samples


def test_every_language_parses_without_network(tmp_path: Path) -> None:
    (tmp_path / "sitecustomize.py").write_text(textwrap.dedent(_SITECUSTOMIZE), encoding="utf-8")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tmp_path), env.get("PYTHONPATH")]))
    samples = _samples()
    completed = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps(samples)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    report = json.loads(completed.stdout.strip().splitlines()[-1])
    assert report["blocked"], "the child could reach the network; the test proves nothing"
    results = report["results"]
    assert set(results) == set(samples)
    for name, result in results.items():
        assert result["symbols"] > 0, f"{name}: no definitions extracted offline"
        if name != "toml":  # TOML refers to nothing by name
            assert result["references"] > 0, f"{name}: no references extracted offline"
