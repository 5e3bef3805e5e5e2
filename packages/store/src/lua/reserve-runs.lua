--[[
  Reserves runs' places among their accounts' RUNNING executions, and their bytes within the
  accounts' budgets of stored bytes, in the control slot, before each run's shard accepts it
  (account-reservations.ts): with more than one shard, no shard sees all of an account's runs,
  and the limits stay exact over all of them here. The shard then accepts the run with no limit of
  its own; a refusal there gives the place and the bytes back (release-runs.lua). The runs one
  process asks to reserve in one turn of its event loop come in one call.

  KEYS[1] the registry of shards: a key of the control slot, where every key this script writes is

  ARGV[1] the key templates, a JSON object (history-index.lua's history_key fills them):
    reserved_runs  an account's reserved runs (sorted set: execution id → start time), \1 its account
    stored_bytes   an account's stored bytes in a window, \1 its account, \2 the window
  ARGV[2..] one run each, a JSON object:
    id            execution id
    account       its account
    starttime     start time, epoch milliseconds, as a string
    max_running   maximum running executions for the account (0: no limit)
    budget        budget of stored bytes for the account (0: no limit)
    size          the bytes the run stores when accepted (what accept-record.lua counts)
    window        the index of the current window of stored bytes
    window_ms     window length, milliseconds
    window_start  start of the current window, epoch milliseconds

  Returns one reply per run, in order (ScriptReply in script-replies.ts):
   Done (1)                     reserved, or reserved already by this very call (sent again)
   ReservedBefore (4)           reserved already by an earlier call with another start time: ids
                                are random or derived from what the run is (a child's, a tick's),
                                so it is the same run asked for again; its place and bytes are
                                those reserved then
   QuotaExceeded (-2)           the account has its maximum of reserved runs
   {BudgetExceeded (-3), wait}  the bytes do not fit the budget for `wait` seconds at least
   LargerThanBudget (-4)        the run alone is larger than the budget
]]
--- @include "history-index.lua"
--- @include "stored-bytes-budget.lua"
local templates = cjson.decode(ARGV[1])

local function reserve(run)
  local reserved_runs = history_key(templates.reserved_runs, run.account)
  local reserved = redis.call('ZSCORE', reserved_runs, run.id)
  if reserved then
    return reserved == run.starttime and 1 or 4
  end
  if run.max_running > 0 and redis.call('ZCARD', reserved_runs) >= run.max_running then
    return -2
  end
  local bytes_now = history_key(templates.stored_bytes, run.account, tostring(run.window))
  local bytes_before = history_key(templates.stored_bytes, run.account, tostring(run.window - 1))
  local refused = over_budget(bytes_now, bytes_before, run, run.size)
  if refused then
    return refused
  end
  -- Without a quota nothing counts the places: none is kept, and none is left behind.
  if run.max_running > 0 then
    redis.call('ZADD', reserved_runs, run.starttime, run.id)
  end
  if run.size > 0 and redis.call('INCRBY', bytes_now, run.size) == run.size then
    redis.call('PEXPIRE', bytes_now, 2 * run.window_ms)
  end
  return 1
end

local replies = {}
for i = 2, #ARGV do
  replies[i - 1] = reserve(cjson.decode(ARGV[i]))
end
return replies
