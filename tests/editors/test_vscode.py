"""VS Code extension: ``editors/vscode/build.sh`` builds, unit-tests and packages it.

VS Code itself cannot be run here, so this checks what CI can: ``npm ci``, ``tsc``,
the extension's own node:test suite (settings -> server command, args and
initializationOptions), ``vsce package``, and that the .vsix holds the compiled
extension and the vscode-languageclient it needs at run time, which loads under
plain node with a stand-in ``vscode`` module. ``build.sh`` reuses node_modules
when package-lock.json has not changed, so a second run takes seconds.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from tests.support.paths import REPO

VSCODE_DIR = REPO / "editors" / "vscode"

NPM = shutil.which("npm")
NODE = shutil.which("node")
pytestmark = [
    pytest.mark.slow,  # npm and node
    pytest.mark.skipif(
        NPM is None or NODE is None,
        reason="npm/node are not installed (apt-get install nodejs npm)",
    ),
    # A fresh clone runs `npm ci` (about a minute); later runs reuse node_modules.
    pytest.mark.timeout(900),
]

# Load the packaged extension under node with a stand-in for the `vscode` module
# (which only VS Code provides), to prove its run-time imports resolve inside the .vsix.
LOAD_CHECK = r"""
const Module = require("module");
const original = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === "vscode") {
    return new Proxy({}, { get: () => new Proxy(function () {}, { get: () => ({}) }) });
  }
  return original.apply(this, arguments);
};
const ext = require(process.argv[2]);
const client = require(require.resolve("vscode-languageclient/node", { paths: [process.argv[2]] }));
console.log(JSON.stringify({
  activate: typeof ext.activate,
  deactivate: typeof ext.deactivate,
  LanguageClient: typeof client.LanguageClient,
}));
"""


@pytest.fixture(scope="module")
def vsix(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("vsix") / "symfuse.vsix"
    proc = subprocess.run(
        ["bash", str(VSCODE_DIR / "build.sh")],
        env={**os.environ, "SYMFUSE_VSIX": str(out)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, f"build.sh failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    assert out.is_file(), proc.stdout[-2000:]
    return out


def test_vsix_holds_the_extension_and_its_runtime_dependencies(vsix: Path) -> None:
    with zipfile.ZipFile(vsix) as zf:
        names = set(zf.namelist())
        manifest = json.loads(zf.read("extension/package.json"))
    assert "extension/out/extension.js" in names
    assert "extension/out/config.js" in names
    assert "extension/node_modules/vscode-languageclient/node.js" in names
    assert "extension/node_modules/vscode-languageclient/lib/node/main.js" in names
    assert "extension/node_modules/vscode-languageserver-protocol/package.json" in names
    assert "extension/node_modules/vscode-jsonrpc/package.json" in names
    # Sources, tests and build tools stay out.
    assert not any(n.startswith("extension/src/") for n in names)
    assert not any(n.startswith("extension/out/test/") for n in names)
    assert not any(
        "node_modules/typescript/" in n or "node_modules/@vscode/vsce" in n for n in names
    )

    assert manifest["main"] == "./out/extension.js"
    properties = manifest["contributes"]["configuration"]["properties"]
    for setting in (
        "symfuse.serverPath",
        "symfuse.extraArgs",
        "symfuse.include",
        "symfuse.exclude",
        "symfuse.maxFileSize",
        "symfuse.resultLimit",
        "symfuse.languages",
    ):
        assert setting in properties, setting
    assert properties["symfuse.serverPath"]["default"] == "symfuse"
    assert "onStartupFinished" in manifest["activationEvents"]


def test_packaged_extension_loads(vsix: Path, tmp_path: Path) -> None:
    with zipfile.ZipFile(vsix) as zf:
        zf.extractall(tmp_path)
    assert NODE is not None
    check = tmp_path / "load_check.js"
    check.write_text(LOAD_CHECK, encoding="utf-8")
    proc = subprocess.run(
        [NODE, str(check), str(tmp_path / "extension" / "out" / "extension.js")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    loaded = json.loads(proc.stdout.strip().splitlines()[-1])
    assert loaded == {
        "activate": "function",
        "deactivate": "function",
        "LanguageClient": "function",
    }
