--[[
  Reserves a run's place among its account's RUNNING executions, and its bytes within the
  account's budget of stored bytes, in the control slot, before the run's shard accepts it
  (account-reservations.ts): with more than one shard, no shard sees all of an account's runs,
  and the limits stay exact over all of them here. The shard then accepts the run with no limit of
  its own; a refusal there gives the place and the bytes back.

  KEYS[1] the account's reserved runs (sorted set: execution id → start time)
  KEYS[2] the account's stored bytes in the current window (control slot)
  KEYS[3] the account's stored bytes in the window before it

  ARGV[1] a JSON object:
    id            execution id
    starttime     start time, epoch milliseconds, as a string
    max_running   maximum running executions for the account (0: no limit)
    budget        budget of stored bytes for the account (0: no limit)
    size          the bytes the run stores when accepted (what accept-record.lua counts)
    window_ms     window length, milliseconds
    window_start  start of the current window, epoch milliseconds

  Returns (ScriptReply in script-replies.ts)
   Done (1)                     reserved, or reserved already by this very call (sent again)
   ReservedBefore (4)           reserved already by an earlier call with another start time: ids
                                are random or derived from what the run is (a child's, a tick's),
                                so it is the same run asked for again; its place and bytes are
                                those reserved then
   QuotaExceeded (-2)           the account has its maximum of reserved runs
   {BudgetExceeded (-3), wait}  the bytes do not fit the budget for `wait` seconds at least
   LargerThanBudget (-4)        the run alone is larger than the budget
]]
--- @include "stored-bytes-budget.lua"
local args = cjson.decode(ARGV[1])
local reserved = redis.call('ZSCORE', KEYS[1], args.id)
if reserved then
  return reserved == args.starttime and 1 or 4
end
if args.max_running > 0 and redis.call('ZCARD', KEYS[1]) >= args.max_running then
  return -2
end
local refused = over_budget(KEYS[2], KEYS[3], args, args.size)
if refused then
  return refused
end
-- Without a quota nothing counts the places: none is kept, and none is left behind.
if args.max_running > 0 then
  redis.call('ZADD', KEYS[1], args.starttime, args.id)
end
if args.size > 0 and redis.call('INCRBY', KEYS[2], args.size) == args.size then
  redis.call('PEXPIRE', KEYS[2], 2 * args.window_ms)
end
return 1
