--[[
  A worker hands an execution back to the queue (graceful shutdown): it no longer runs on
  that host until another worker takes it, so its host is '' again, as while first queued.

  It leaves its account's executing set (see claim-execution.lua) as well: waiting again, it holds
  no place there until it is taken again. The set's name is the prefix given with the record's
  account appended.

  KEYS[1] execution hash

  ARGV[1] lease token of the worker releasing it
  ARGV[2] name of an account's executing set, less the account
  ARGV[3] name of an account's list rows of RUNNING executions, less the account

  Clears host, worker and lease, and keeps the lease released as `released`: a client that lost the
  reply on a dropped connection sends the call again, and must hear that it was released.

  Returns 1 when released (now or by this very call before), 0 when it is not RUNNING or another
  take has happened since.
]]
-- listRow: list-row.lua, set before this script (scripts.ts).
local state = redis.call('HMGET', KEYS[1], 'status', 'lease', 'released', 'account', 'id', 'starttime', 'cancel', 'choreo')
if state[1] ~= 'RUNNING' then
  return 0
end
if state[2] == '' and state[3] == ARGV[1] then
  return 1
end
if state[2] ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[1], 'host', '', 'worker', '', 'lease', '', 'released', ARGV[1])
redis.call('SREM', ARGV[2] .. state[4], state[5])
redis.call('HSET', ARGV[3] .. state[4], state[5], listRow(state[6], '', '', state[7], state[8]))
return 1
