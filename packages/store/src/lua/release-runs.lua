--[[
  Lets runs' reservations go in the control slot (account-reservations.ts): their places among
  their account's RUNNING and executing runs, with the bytes of the outputs their ends stored
  charged to the account, or the bytes a refused run had reserved given back. The releases one
  process makes in one turn of its event loop come in one call.

  KEYS[1] the registry of shards: a key of the control slot, where every key this script writes is

  ARGV[1] the key templates, a JSON object (history-index.lua's history_key fills them):
    reserved_runs       an account's reserved runs, \1 its account
    reserved_executing  an account's reserved executing runs, \1 its account
    stored_bytes        an account's stored bytes in a window, \1 its account, \2 the window
  ARGV[2..] one release each, a JSON object:
    account       the runs' account
    ids           the execution ids, a list
    stored        bytes to charge (ended runs' outputs; 0 for none)
    refund        bytes to give back (a refused run's reservation; 0 for none)
    window        the index of the window of stored bytes they count in
    window_ms     window length, milliseconds

  Returns the number of releases made.
]]
--- @include "history-index.lua"
local templates = cjson.decode(ARGV[1])

-- An end that terminated thousands of descendants releases them all: unpack takes a few thousand
-- values at most.
local function remove(key, ids)
  for from = 1, #ids, 1000 do
    redis.call('ZREM', key, unpack(ids, from, math.min(from + 999, #ids)))
  end
end

for i = 2, #ARGV do
  local release = cjson.decode(ARGV[i])
  remove(history_key(templates.reserved_runs, release.account), release.ids)
  remove(history_key(templates.reserved_executing, release.account), release.ids)
  local bytes = history_key(templates.stored_bytes, release.account, tostring(release.window))
  if release.stored > 0 and redis.call('INCRBY', bytes, release.stored) == release.stored then
    redis.call('PEXPIRE', bytes, 2 * release.window_ms)
  end
  if release.refund > 0 then
    redis.call('DECRBY', bytes, release.refund)
    -- A window whose key had expired meanwhile is made again: it expires as the window's do.
    if redis.call('PTTL', bytes) == -1 then
      redis.call('PEXPIRE', bytes, 2 * release.window_ms)
    end
  end
end
return #ARGV - 1
