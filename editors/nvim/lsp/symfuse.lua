-- Neovim 0.11+ config for `vim.lsp.enable('symfuse')`: with editors/nvim on the
-- runtimepath, this file is the base that vim.lsp.config('symfuse', {...}) extends.
-- The values come from require("symfuse").default_config, so both ways agree.
local defaults = require("symfuse").default_config

return {
  cmd = defaults.cmd,
  filetypes = defaults.filetypes,
  root_markers = defaults.root_markers,
  init_options = defaults.init_options,
}
