"""Neovim end to end: editors/nvim's ``require("symfuse").setup{}`` drives ``symfuse lsp``.

Debian's headless Neovim (0.7.x, apt ``neovim``) loads the plugin from
``editors/nvim``, opens a file of a copy of ``tests/fixtures/nvim_workspace``,
which starts and attaches the installed ``symfuse lsp`` through Neovim's own LSP
client, waits for the ``$/progress`` end of the first index, then sends
``workspace/symbol`` with ``vim.lsp.buf_request_sync``. A Lua
driver writes what Neovim got (and where Neovim would jump) to a JSON file that
the test checks. Skipped only when ``nvim`` is not installed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest
from lsprotocol.types import SymbolKind
from tests.support.paths import FIXTURES, REPO

PLUGIN_DIR = REPO / "editors" / "nvim"
FIXTURE = FIXTURES / "nvim_workspace"

NVIM = shutil.which("nvim")
pytestmark = [
    pytest.mark.slow,  # Neovim and symfuse lsp
    pytest.mark.skipif(
        NVIM is None, reason="nvim is not installed (apt-get install neovim runs these tests)"
    ),
]

# Lua that runs inside Neovim 0.7+: drive the plugin and report as JSON.
E2E_DRIVER = r"""
local params = vim.fn.json_decode(table.concat(vim.fn.readfile(vim.env.SYMFUSE_NVIM_PARAMS), "\n"))
local report = { queries = {} }

local function write_report()
  local f = assert(io.open(params.out, "w"))
  f:write(vim.fn.json_encode(report))
  f:close()
end

local function symfuse_client()
  for _, client in pairs(vim.lsp.buf_get_clients(0)) do
    if client.name == "symfuse" then
      return client
    end
  end
  return nil
end

local function run()
  vim.lsp.set_log_level("info")
  vim.opt.runtimepath:prepend(params.plugin_dir)
  vim.cmd("filetype on")
  -- The end of the first index's work-done progress says every file is in: wait for it
  -- (the handler Neovim would run anyway still runs).
  local default_progress = vim.lsp.handlers["$/progress"]
  vim.lsp.handlers["$/progress"] = function(err, result, ctx, config)
    if result and type(result.value) == "table" and result.value.kind == "end" then
      report.indexed = result.value.message or true
    end
    if default_progress then
      return default_progress(err, result, ctx, config)
    end
  end
  local symfuse = require("symfuse")
  report.api = symfuse.api()
  report.messages = {}
  local default_show = vim.lsp.handlers["window/showMessage"]
  vim.lsp.handlers["window/showMessage"] = function(err, result, ctx, config)
    report.messages[#report.messages + 1] = result and result.message or ""
    if default_show then
      return default_show(err, result, ctx, config)
    end
  end
  if params.no_init_options then
    symfuse.setup({ cmd = params.cmd }) -- as setup({}) does: the default init_options = {}
  else
    symfuse.setup({ cmd = params.cmd, init_options = { resultLimit = 50 } })
  end
  vim.cmd("edit " .. vim.fn.fnameescape(params.file))
  report.filetype = vim.bo.filetype

  local client
  local ready = vim.wait(params.timeout_ms, function()
    client = symfuse_client()
    return client ~= nil and client.initialized == true
  end, 50)
  if not ready then
    report.error = "no initialized symfuse client attached to " .. params.file
    return
  end
  report.root_dir = client.config.root_dir
  report.offset_encoding = client.offset_encoding
  report.workspace_symbol_provider = client.server_capabilities.workspaceSymbolProvider

  if not vim.wait(params.timeout_ms, function() return report.indexed ~= nil end, 20) then
    report.error = "symfuse sent no $/progress end for the first index"
    return
  end

  for _, query in ipairs(params.queries) do
    local entry = { query = query.query }
    report.queries[#report.queries + 1] = entry
    local responses, err =
      vim.lsp.buf_request_sync(0, "workspace/symbol", { query = query.query }, params.timeout_ms)
    entry.request_error = err
    local response = responses and responses[client.id]
    entry.response_error = response and response.error or nil
    entry.result = response and response.result or nil
    if type(entry.result) == "table" then
      for i, symbol in ipairs(entry.result) do
        if symbol.name == query.expect then
          entry.found = symbol
          entry.rank = i
          break
        end
      end
    end
    local found = entry.found
    if found and found.location and found.location.range then
      -- Where Neovim would jump: 1-based line and 1-based byte column.
      local items = vim.lsp.util.locations_to_items({ found.location }, client.offset_encoding)
      entry.jump = { filename = items[1].filename, lnum = items[1].lnum, col = items[1].col }
    end
  end
end

local ok, err = xpcall(run, debug.traceback)
if not ok then
  report.error = tostring(err)
end
write_report()
vim.lsp.stop_client(vim.lsp.get_active_clients())
vim.wait(3000, function() return #vim.lsp.get_active_clients() == 0 end, 50)
vim.cmd("qall!")
"""

# Lua that checks the plugin's logic without a server: option merging, root
# detection, and which API it calls on 0.8 (vim.lsp.start) and 0.11
# (vim.lsp.config/enable), using stand-ins for those functions.
UNIT_DRIVER = r"""
local params = vim.fn.json_decode(table.concat(vim.fn.readfile(vim.env.SYMFUSE_NVIM_PARAMS), "\n"))
local report = { checks = {} }

local function check(name, cond, detail)
  report.checks[#report.checks + 1] =
    { name = name, ok = cond and true or false, detail = vim.inspect(detail) }
end

local function fresh()
  package.loaded["symfuse"] = nil
  pcall(vim.api.nvim_del_augroup_by_name, "symfuse_lsp")
  vim.cmd("silent! %bwipeout!")
  return require("symfuse")
end

local function run()
  vim.opt.runtimepath:prepend(params.plugin_dir)
  vim.cmd("filetype on")
  local real = { start = vim.lsp.start, config = vim.lsp.config, enable = vim.lsp.enable }
  local symfuse = fresh()

  check("api on this nvim", symfuse.api() == params.expected_api, symfuse.api())

  local cfg = symfuse.resolve({ cmd = { "x", "lsp" }, init_options = { resultLimit = 5 } })
  check("cmd replaced", vim.deep_equal(cfg.cmd, { "x", "lsp" }), cfg.cmd)
  check("default filetypes kept", vim.tbl_contains(cfg.filetypes, "python"), cfg.filetypes)
  check("init_options set", cfg.init_options.resultLimit == 5, cfg.init_options)
  local short = symfuse.resolve({ filetypes = { "go" } })
  check("filetypes replaced, not merged",
    vim.deep_equal(short.filetypes, { "go" }), short.filetypes)
  check("bad option rejected", not pcall(symfuse.resolve, { cmd = "symfuse lsp" }), nil)
  check("empty cmd rejected", not pcall(symfuse.resolve, { cmd = {} }), nil)

  local from_file = symfuse.find_root(params.file, { "pyproject.toml" })
  check("root from a nested file", from_file == params.root, from_file)
  local from_dir = symfuse.find_root(params.root, { "pyproject.toml" })
  check("root from a directory", from_dir == params.root, from_dir)
  local none = symfuse.find_root(params.file, { "no-such-marker.xyz" })
  check("no root without a marker", none == nil, none)

  -- lsp/symfuse.lua, the base config of vim.lsp.enable('symfuse') on 0.11+.
  local base = dofile(params.plugin_dir .. "/lsp/symfuse.lua")
  check("lsp/symfuse.lua cmd", vim.deep_equal(base.cmd, { "symfuse", "lsp" }), base.cmd)
  check("lsp/symfuse.lua filetypes", vim.tbl_contains(base.filetypes, "python"), base.filetypes)
  check("lsp/symfuse.lua root_markers", vim.tbl_contains(base.root_markers, ".git"), base)

  -- Neovim 0.8-0.10: vim.lsp.start from a FileType autocmd.
  local started = {}
  vim.lsp.config, vim.lsp.enable = nil, nil
  vim.lsp.start = function(config, opts)
    started[#started + 1] = { config = config, opts = opts }
    return 42
  end
  symfuse = fresh()
  symfuse.setup({ cmd = { params.exe, "lsp" }, init_options = { exclude = { "build/**" } } })
  vim.cmd("edit " .. vim.fn.fnameescape(params.file))
  check("0.8: api", symfuse.api() == "start", symfuse.api())
  check("0.8: started once for the python buffer", #started == 1, started)
  local s = started[1] or { config = {}, opts = {} }
  check("0.8: name", s.config.name == "symfuse", s.config.name)
  check("0.8: cmd", vim.deep_equal(s.config.cmd, { params.exe, "lsp" }), s.config.cmd)
  check("0.8: root_dir", s.config.root_dir == params.root, s.config.root_dir)
  check("0.8: init_options",
    vim.deep_equal(s.config.init_options, { exclude = { "build/**" } }), s.config.init_options)
  check("0.8: bufnr", s.opts and s.opts.bufnr == vim.api.nvim_get_current_buf(), s.opts)
  vim.cmd("edit " .. vim.fn.fnameescape(params.text_file))
  check("0.8: other filetypes do not start it", #started == 1, #started)

  -- Neovim 0.11+: vim.lsp.config + vim.lsp.enable.
  local configured, enabled = {}, {}
  vim.lsp.start = nil
  vim.lsp.config = setmetatable({}, {
    __call = function(_, name, config)
      configured[#configured + 1] = { name = name, config = config }
    end,
  })
  vim.lsp.enable = function(name)
    enabled[#enabled + 1] = name
  end
  symfuse = fresh()
  symfuse.setup({
    cmd = { params.exe, "lsp" }, root_markers = { "pyproject.toml" }, filetypes = { "python" },
  })
  check("0.11: api", symfuse.api() == "config", symfuse.api())
  local c = configured[1] or { config = {} }
  check("0.11: vim.lsp.config('symfuse', ...)",
    #configured == 1 and c.name == "symfuse", configured)
  check("0.11: cmd", vim.deep_equal(c.config.cmd, { params.exe, "lsp" }), c.config.cmd)
  check("0.11: filetypes", vim.deep_equal(c.config.filetypes, { "python" }), c.config.filetypes)
  check("0.11: enabled", vim.deep_equal(enabled, { "symfuse" }), enabled)
  vim.cmd("edit " .. vim.fn.fnameescape(params.file))
  local root
  if type(c.config.root_dir) == "function" then
    c.config.root_dir(vim.api.nvim_get_current_buf(), function(dir) root = dir end)
  end
  check("0.11: root_dir callback", root == params.root, root)

  vim.lsp.start, vim.lsp.config, vim.lsp.enable = real.start, real.config, real.enable
end

local ok, err = xpcall(run, debug.traceback)
if not ok then
  report.error = tostring(err)
end
local f = assert(io.open(params.out, "w"))
f:write(vim.fn.json_encode(report))
f:close()
vim.cmd("qall!")
"""


def _symfuse_exe() -> str | None:
    """The installed console script: next to this interpreter, else on PATH."""
    beside = Path(sys.executable).with_name("symfuse")
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which("symfuse")


def _nvim_env(tmp_path: Path) -> dict[str, str]:
    """Keep Neovim's and symfuse's state (lsp.log, the index cache) inside tmp_path."""
    env = dict(os.environ)
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        path = tmp_path / "xdg" / var.lower()
        path.mkdir(parents=True, exist_ok=True)
        env[var] = str(path)
    env.pop("NVIM_LOG_FILE", None)
    env.pop("VIMINIT", None)
    return env


def _run_nvim(
    tmp_path: Path, driver: str, params: dict[str, Any], timeout: float
) -> dict[str, Any]:
    """Run ``driver`` in headless Neovim with ``params``; return the JSON report it wrote."""
    assert NVIM is not None
    script = tmp_path / "driver.lua"
    script.write_text(driver, encoding="utf-8")
    out = tmp_path / "report.json"
    params = {**params, "out": str(out), "plugin_dir": str(PLUGIN_DIR)}
    params_file = tmp_path / "params.json"
    params_file.write_text(json.dumps(params), encoding="utf-8")
    env = _nvim_env(tmp_path)
    env["SYMFUSE_NVIM_PARAMS"] = str(params_file)
    proc = subprocess.run(
        [NVIM, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {script}"],
        cwd=params.get("cwd", tmp_path),
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if not out.is_file():
        log = _lsp_log(tmp_path)
        pytest.fail(
            f"nvim wrote no report (exit {proc.returncode})\n"
            f"stdout: {proc.stdout[-2000:]}\nstderr: {proc.stderr[-2000:]}\nlsp.log: {log}"
        )
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    report["_log"] = _lsp_log(tmp_path)
    return report


def _lsp_log(tmp_path: Path) -> str:
    log = tmp_path / "xdg" / "xdg_cache_home" / "nvim" / "lsp.log"
    return log.read_text(encoding="utf-8", errors="replace")[-4000:] if log.is_file() else "(none)"


def _nvim_version() -> tuple[int, int]:
    assert NVIM is not None
    first = subprocess.run(
        [NVIM, "--version"], capture_output=True, text=True, check=True, timeout=30
    ).stdout.splitlines()[0]
    major, minor = first.split()[1].lstrip("v").split(".")[:2]
    return int(major), int(minor)


def _expected_api() -> str:
    version = _nvim_version()
    if version >= (0, 11):
        return "config"
    if version >= (0, 8):
        return "start"
    return "start_client"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A copy of the fixture workspace, so nothing the server writes lands in the repo."""
    root = tmp_path / "nvim_workspace"
    shutil.copytree(FIXTURE, root)
    return root.resolve()


def test_nvim_plugin_logic(tmp_path: Path, workspace: Path) -> None:
    """setup{} merges options, finds roots and calls the right API for each Neovim."""
    text_file = workspace / "notes.txt"
    text_file.write_text("not code\n", encoding="utf-8")
    report = _run_nvim(
        tmp_path,
        UNIT_DRIVER,
        {
            "file": str(workspace / "shapes" / "tiling.py"),
            "text_file": str(text_file),
            "root": str(workspace),
            "exe": NVIM,
            "expected_api": _expected_api(),
            "cwd": str(workspace),
        },
        timeout=60,
    )
    assert "error" not in report, report["error"]
    failed = [c for c in report["checks"] if not c["ok"]]
    assert not failed, "\n".join(f"{c['name']}: got {c['detail']}" for c in failed)
    assert len(report["checks"]) >= 20


def _uri_path(uri: str) -> Path:
    parsed = urlparse(uri)
    assert parsed.scheme == "file", uri
    return Path(unquote(parsed.path)).resolve()


def test_nvim_workspace_symbol_end_to_end(tmp_path: Path, workspace: Path) -> None:
    """Neovim's LSP client gets ranked workspace symbols from the real ``symfuse lsp``."""
    exe = _symfuse_exe()
    assert exe is not None, "the symfuse console script is not installed (pip install -e .)"
    probe = subprocess.run(
        [exe, "lsp", "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    assert probe.returncode == 0, f"`symfuse lsp --help` failed: {probe.stderr.strip()[-500:]}"

    tiling = workspace / "shapes" / "tiling.py"
    report = _run_nvim(
        tmp_path,
        E2E_DRIVER,
        {
            "cmd": [exe, "lsp"],
            "file": str(workspace / "shapes" / "render.py"),
            "queries": [
                {"query": "HexagonalTiling", "expect": "HexagonalTiling"},
                {"query": "grenzwert_total", "expect": "grenzwert_total"},
            ],
            "timeout_ms": 60_000,
            "cwd": str(workspace),
        },
        timeout=240,
    )
    context = json.dumps({k: v for k, v in report.items() if k != "_log"}, indent=1)[:6000]
    context += "\n--- lsp.log ---\n" + report["_log"]
    assert "error" not in report, f"{report['error']}\n{context}"
    assert report["api"] == _expected_api()
    assert report["filetype"] == "python"
    # setup{}'s default root markers find the fixture's pyproject.toml.
    assert Path(report["root_dir"]).resolve() == workspace, context
    assert report["offset_encoding"] == "utf-16", context  # Neovim 0.7 offers only UTF-16
    assert report["workspace_symbol_provider"], context

    by_query = {q["query"]: q for q in report["queries"]}

    hexagonal = by_query["HexagonalTiling"]
    assert "found" in hexagonal, f"HexagonalTiling not in the answer\n{context}"
    symbol = hexagonal["found"]
    assert hexagonal["rank"] == 1, f"an exact name match should rank first\n{context}"
    assert len(hexagonal["result"]) <= 50, "initializationOptions.resultLimit was ignored"
    assert SymbolKind(symbol["kind"]) is SymbolKind.Class
    # Neovim 0.7 does not offer workspaceSymbol/resolve, so the range must be there.
    location = symbol["location"]
    assert "range" in location, f"location without a range for a client without resolve\n{context}"
    assert _uri_path(location["uri"]) == tiling.resolve()
    start = location["range"]["start"]
    assert start["line"] == 16  # `class HexagonalTiling(Polygon):` is line 17
    assert start["character"] in (0, 6), start  # the definition or the name
    jump = hexagonal["jump"]
    assert Path(jump["filename"]).resolve() == tiling.resolve()
    assert jump["lnum"] == 17
    assert jump["col"] in (1, 7)

    # `größe = 1.5; grenzwert_total = 2.5`: the name starts at UTF-16 column 13,
    # which Neovim must turn into byte column 16 (1-based) to land on it.
    grenzwert = by_query["grenzwert_total"]
    assert "found" in grenzwert, f"grenzwert_total not in the answer\n{context}"
    assert SymbolKind(grenzwert["found"]["kind"]) is SymbolKind.Variable
    assert grenzwert["found"]["location"]["range"]["start"] == {"line": 26, "character": 13}
    jump = grenzwert["jump"]
    line = tiling.read_text(encoding="utf-8").splitlines()[jump["lnum"] - 1]
    assert jump["lnum"] == 27
    assert line.encode("utf-8")[jump["col"] - 1 :].startswith(b"grenzwert_total"), (jump, line)


def test_nvim_setup_without_init_options_shows_no_warning(tmp_path: Path, workspace: Path) -> None:
    """``setup({})``'s empty init_options reach the server as ``[]`` from Neovim 0.7: read as
    "nothing given", with no "bad initializationOptions" message on every start."""
    exe = _symfuse_exe()
    assert exe is not None, "the symfuse console script is not installed (pip install -e .)"
    report = _run_nvim(
        tmp_path,
        E2E_DRIVER,
        {
            "cmd": [exe, "lsp"],
            "no_init_options": True,
            "file": str(workspace / "shapes" / "render.py"),
            "queries": [{"query": "HexagonalTiling", "expect": "HexagonalTiling"}],
            "timeout_ms": 60_000,
            "cwd": str(workspace),
        },
        timeout=240,
    )
    context = json.dumps({k: v for k, v in report.items() if k != "_log"}, indent=1)[:4000]
    assert "error" not in report, f"{report['error']}\n{context}"
    assert report["messages"] == [], context
    assert report["queries"][0].get("rank") == 1, context
