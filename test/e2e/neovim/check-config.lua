-- Opens files in a Neovim whose init.lua is the README's config, and records the
-- diagnostics Neovim shows for each once the server has answered.
-- Input: $RETRY_SAFETY_NVIM (JSON: files, out, timeout_ms).
local input = vim.json.decode(os.getenv('RETRY_SAFETY_NVIM'))
local buffers = {}
for _, path in ipairs(input.files) do
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  table.insert(buffers, { path = path, bufnr = vim.api.nvim_get_current_buf() })
end

local function all_shown()
  for _, buffer in ipairs(buffers) do
    if #vim.diagnostic.get(buffer.bufnr) == 0 then
      return false
    end
  end
  return true
end
vim.wait(input.timeout_ms, all_shown, 50)

local result = { files = {} }
for _, buffer in ipairs(buffers) do
  local clients = vim.tbl_map(function(client) return client.name end, vim.lsp.buf_get_clients(buffer.bufnr))
  table.insert(result.files, {
    path = buffer.path,
    filetype = vim.bo[buffer.bufnr].filetype,
    clients = vim.tbl_values(clients),
    diagnostics = vim.tbl_map(function(d)
      return { lnum = d.lnum, col = d.col, severity = d.severity, source = d.source, message = d.message }
    end, vim.diagnostic.get(buffer.bufnr)),
  })
end
local out = assert(io.open(input.out, 'w'))
out:write(vim.json.encode(result))
out:close()
vim.cmd('qall!')
