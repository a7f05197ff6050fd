-- symfuse for Neovim: start `symfuse lsp` for the buffers it can index.
--
--   require("symfuse").setup{
--     cmd = { "symfuse", "lsp" },                -- the server command
--     root_markers = { ".git", "pyproject.toml" }, -- how a workspace root is found
--     init_options = { exclude = { "build/**" } }, -- initializationOptions
--     filetypes = { "python", "go" },            -- which buffers attach
--   }
--
-- Works on Neovim 0.7 and later, using the newest API the running Neovim has:
--   0.11+  vim.lsp.config('symfuse', ...) + vim.lsp.enable('symfuse')
--   0.8+   vim.lsp.start() from a FileType autocmd (one client per root)
--   0.7    vim.lsp.start_client() + vim.lsp.buf_attach_client() from a FileType autocmd

local M = {}

local NAME = "symfuse"

-- Vim filetypes of the languages symfuse indexes (see indexer/languages.py).
local DEFAULT_FILETYPES = {
  "python", "javascript", "javascriptreact", "typescript", "typescriptreact",
  "go", "rust", "java", "c", "cpp", "cs", "ruby", "php", "kotlin", "swift",
  "scala", "lua", "sh", "bash", "dart", "elixir", "haskell", "ocaml", "zig",
  "julia", "r", "perl", "objc", "objcpp", "groovy", "erlang", "elm", "solidity",
  "proto", "clojure", "fsharp", "nim", "gleam", "cuda", "terraform", "hcl",
}

local DEFAULT_ROOT_MARKERS = {
  ".git", ".hg", ".symfuse", "pyproject.toml", "setup.py", "setup.cfg",
  "package.json", "go.mod", "Cargo.toml", "pom.xml", "build.gradle",
  "build.gradle.kts", "Gemfile", "composer.json", "mix.exs",
}

--- The defaults `setup()` starts from. nvim-lspconfig users can reuse them.
M.default_config = {
  cmd = { "symfuse", "lsp" },
  filetypes = DEFAULT_FILETYPES,
  root_markers = DEFAULT_ROOT_MARKERS,
  -- initializationOptions: include, exclude (globs), maxFileSize, resultLimit, languages.
  init_options = {},
  settings = {},
  -- When no root marker is found: use the current directory (true) or do not attach (false).
  cwd_fallback = true,
  -- Start the server automatically for matching buffers.
  autostart = true,
  -- Passed through to the client when set.
  on_attach = nil,
  on_init = nil,
  capabilities = nil,
  handlers = nil,
}

local uv = vim.uv or vim.loop

local function copy_list(list)
  local out = {}
  for i, v in ipairs(list or {}) do
    out[i] = v
  end
  return out
end

--- Merge user options over the defaults. List options (cmd, filetypes,
--- root_markers) are replaced as a whole; init_options and settings are merged
--- deeply, so setting one initialization option keeps the others.
function M.resolve(opts)
  opts = opts or {}
  if type(opts) ~= "table" then
    error("symfuse: setup() takes a table, got " .. type(opts))
  end
  for _, key in ipairs({ "cmd", "filetypes", "root_markers", "init_options", "settings" }) do
    if opts[key] ~= nil and type(opts[key]) ~= "table" then
      error(("symfuse: %s must be a table, got %s"):format(key, type(opts[key])))
    end
  end
  local defaults = M.default_config
  local config = {}
  for k, v in pairs(defaults) do
    config[k] = v
  end
  for k, v in pairs(opts) do
    config[k] = v
  end
  config.cmd = copy_list(opts.cmd or defaults.cmd)
  config.filetypes = copy_list(opts.filetypes or defaults.filetypes)
  config.root_markers = copy_list(opts.root_markers or defaults.root_markers)
  config.init_options = vim.tbl_deep_extend("force", {}, defaults.init_options, opts.init_options or {})
  config.settings = vim.tbl_deep_extend("force", {}, defaults.settings, opts.settings or {})
  if #config.cmd == 0 then
    error("symfuse: cmd must not be empty")
  end
  return config
end

local function exists(path)
  return uv.fs_stat(path) ~= nil
end

local function parent(dir)
  local up = vim.fn.fnamemodify(dir, ":h")
  if up == dir then
    return nil
  end
  return up
end

--- The nearest directory at or above `path` holding one of `markers`, or nil.
function M.find_root(path, markers)
  if path == nil or path == "" then
    return nil
  end
  local dir = vim.fn.fnamemodify(path, ":p"):gsub("/+$", "")
  if dir == "" then
    dir = "/"
  end
  if vim.fn.isdirectory(dir) == 0 then
    dir = vim.fn.fnamemodify(dir, ":h")
  end
  while dir do
    for _, marker in ipairs(markers) do
      if exists(dir .. "/" .. marker) then
        return dir
      end
    end
    dir = parent(dir)
  end
  return nil
end

--- The workspace root for buffer `bufnr` under `config`, or nil to not attach.
function M.root_dir(bufnr, config)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == "" or name:match("^%a[%w+.-]*://") then
    -- Unnamed or non-file buffers (fugitive://, term://, ...): no root of their own.
    return config.cwd_fallback and vim.fn.getcwd() or nil
  end
  local root = M.find_root(name, config.root_markers)
  if root == nil and config.cwd_fallback then
    root = vim.fn.getcwd()
  end
  return root
end

local warned_missing = false

local function executable_ok(config)
  if vim.fn.executable(config.cmd[1]) == 1 then
    return true
  end
  if not warned_missing then
    warned_missing = true
    vim.schedule(function()
      vim.notify(
        ("symfuse: %q is not executable; install symfuse (pip install symfuse) or set cmd in setup()"):format(config.cmd[1]),
        vim.log.levels.WARN
      )
    end)
  end
  return false
end

local function client_config(config, root)
  return {
    name = NAME,
    cmd = config.cmd,
    root_dir = root,
    workspace_folders = root and { { uri = vim.uri_from_fname(root), name = root } } or nil,
    init_options = config.init_options,
    settings = config.settings,
    on_attach = config.on_attach,
    on_init = config.on_init,
    capabilities = config.capabilities,
    handlers = config.handlers,
  }
end

local function matches_filetype(config, bufnr)
  local ft = vim.bo[bufnr].filetype
  return vim.tbl_contains(config.filetypes, ft)
end

-- Neovim 0.7: one client per root, kept here; started once, attached to each buffer.
local clients_by_root = {}

local function attach_0_7(config, bufnr)
  local root = M.root_dir(bufnr, config)
  if root == nil or not executable_ok(config) then
    return nil
  end
  local id = clients_by_root[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if client == nil or client.is_stopped() then
    id = vim.lsp.start_client(client_config(config, root))
    if id == nil then
      return nil
    end
    clients_by_root[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

local function attach_0_8(config, bufnr)
  local root = M.root_dir(bufnr, config)
  if root == nil or not executable_ok(config) then
    return nil
  end
  -- vim.lsp.start reuses a running client with the same name and root_dir.
  return vim.lsp.start(client_config(config, root), { bufnr = bufnr })
end

--- Which API `setup()` uses on this Neovim: "config" (0.11+), "start" (0.8+) or "start_client".
function M.api()
  if type(vim.lsp.config) ~= "nil" and type(vim.lsp.enable) == "function" then
    return "config"
  elseif type(vim.lsp.start) == "function" then
    return "start"
  end
  return "start_client"
end

--- Start (or reuse) the symfuse client for `bufnr` (default: the current buffer).
--- Returns the client id, or nil when the buffer has no root or the server is missing.
function M.attach(bufnr)
  local config = M.config or M.resolve({})
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if M.api() == "start_client" then
    return attach_0_7(config, bufnr)
  end
  return attach_0_8(config, bufnr)
end

local function setup_0_11(config)
  vim.lsp.config(NAME, {
    cmd = config.cmd,
    filetypes = config.filetypes,
    root_dir = function(bufnr, on_dir)
      local root = M.root_dir(bufnr, config)
      if root ~= nil then
        on_dir(root)
      end
    end,
    init_options = config.init_options,
    settings = config.settings,
    on_attach = config.on_attach,
    on_init = config.on_init,
    capabilities = config.capabilities,
    handlers = config.handlers,
  })
  if config.autostart then
    vim.lsp.enable(NAME)
  end
end

local function setup_autocmd(config)
  local group = vim.api.nvim_create_augroup("symfuse_lsp", { clear = true })
  if not config.autostart then
    return
  end
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = config.filetypes,
    callback = function(args)
      M.attach(args.buf)
    end,
    desc = "start or attach the symfuse language server",
  })
  -- Buffers that were already open when setup() ran.
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and matches_filetype(config, bufnr) then
      M.attach(bufnr)
    end
  end
end

--- Configure symfuse and start it for matching buffers. See the top of this file.
function M.setup(opts)
  local config = M.resolve(opts)
  M.config = config
  if M.api() == "config" then
    setup_0_11(config)
  else
    setup_autocmd(config)
  end
  return config
end

return M
