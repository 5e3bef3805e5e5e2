--[[
  Shared by the scripts that accept and end executions, included by each of them: the run
  history's sorted sets (keys.ts: history, accountHistoryByStatus, accountHistoryByChoreo), every
  member an execution id scored by its start time, and the sets that name them for the history
  sweep (historyAccounts, accountHistoryChoreos). The caller
  gives their names as templates (historyKeyTemplates in history-keys.ts): "\1" stands for the
  account and "\2" for the status or Choreo; all are keys of the prefix, so in the script's slot.
]]
-- `template` with "\1" replaced by `account` and "\2" by `name`, literally (no pattern escapes).
local function history_key(template, account, name)
  local function put(text, mark, value)
    local at = string.find(text, mark, 1, true)
    if at == nil then
      return text
    end
    return string.sub(text, 1, at - 1) .. value .. string.sub(text, at + 1)
  end
  return put(put(template, '\1', account), '\2', name or '')
end

-- A new RUNNING execution enters every index.
local function index_history(h, id, starttime, account, choreo)
  redis.call('ZADD', h.all, starttime, id)
  redis.call('ZADD', history_key(h.by_status, account, 'RUNNING'), starttime, id)
  redis.call('ZADD', history_key(h.by_choreo, account, choreo), starttime, id)
  redis.call('SADD', h.accounts, account)
  redis.call('SADD', history_key(h.choreos, account), choreo)
end

-- An ended execution moves from the RUNNING index to its terminal status's.
local function index_history_end(h, id, starttime, account, status)
  redis.call('ZREM', history_key(h.by_status, account, 'RUNNING'), id)
  redis.call('ZADD', history_key(h.by_status, account, status), starttime, id)
end
