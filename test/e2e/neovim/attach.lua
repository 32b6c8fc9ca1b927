-- Headless Neovim 0.7 as an LSP client of the Retry Safety server (vim.lsp.start_client,
-- the API 0.7 has). Opens each file, attaches the server, waits for its diagnostics,
-- asks for code actions on the first one, and writes everything it saw as JSON.
-- Input: $RETRY_SAFETY_NVIM (JSON: cmd, root, settings, files, out, timeout_ms).
local input = vim.json.decode(os.getenv('RETRY_SAFETY_NVIM'))
vim.cmd('filetype on')

local started = vim.loop.hrtime()
local published = {}
local result = { files = {}, errors = {} }

local client_id = vim.lsp.start_client({
  name = 'retry-safety',
  cmd = input.cmd,
  root_dir = input.root,
  settings = input.settings,
  -- 0.7 does not announce workspace/configuration: the server takes initializationOptions.
  init_options = input.settings,
  handlers = {
    ['textDocument/publishDiagnostics'] = function(err, params, ctx, config)
      published[params.uri] = params.diagnostics
      return vim.lsp.diagnostic.on_publish_diagnostics(err, params, ctx, config)
    end,
  },
  on_exit = function(code, signal)
    result.exit = { code = code, signal = signal }
  end,
})
if not client_id then
  table.insert(result.errors, 'start_client failed')
end

local buffers = {}
for _, path in ipairs(input.files) do
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  if client_id then
    vim.lsp.buf_attach_client(bufnr, client_id)
  end
  table.insert(buffers, { path = path, bufnr = bufnr, uri = vim.uri_from_bufnr(bufnr), filetype = vim.bo[bufnr].filetype })
end

local function all_published()
  for _, buffer in ipairs(buffers) do
    local diagnostics = published[buffer.uri]
    if diagnostics == nil or #diagnostics == 0 then
      return false
    end
  end
  return true
end
vim.wait(input.timeout_ms, all_published, 50)
result.wait_ms = (vim.loop.hrtime() - started) / 1e6

for _, buffer in ipairs(buffers) do
  local entry = {
    path = buffer.path,
    uri = buffer.uri,
    filetype = buffer.filetype,
    published = published[buffer.uri] or vim.NIL,
    -- What Neovim itself stores and shows (0-based lines and byte columns).
    shown = vim.tbl_map(function(d)
      return { lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col, severity = d.severity, source = d.source, message = d.message }
    end, vim.diagnostic.get(buffer.bufnr)),
    actions = {},
  }
  local first = (published[buffer.uri] or {})[1]
  if first then
    local responses = vim.lsp.buf_request_sync(buffer.bufnr, 'textDocument/codeAction', {
      textDocument = { uri = buffer.uri },
      range = first.range,
      context = { diagnostics = { first } },
    }, 10000)
    for _, response in pairs(responses or {}) do
      for _, action in ipairs(response.result or {}) do
        table.insert(entry.actions, { title = action.title, kind = action.kind or vim.NIL, has_edit = action.edit ~= nil })
      end
      if response.err then
        table.insert(result.errors, vim.inspect(response.err))
      end
    end
  end
  table.insert(result.files, entry)
end

local out = assert(io.open(input.out, 'w'))
out:write(vim.json.encode(result))
out:close()
vim.cmd('qall!')
