--[[
  Requests the termination of a RUNNING execution: it stops after its current step. Sets its
  termination flag, which every worker sees between steps and when it takes the execution, and
  publishes the request for the worker running it.

  Record fields (RECORD_FIELDS in execution-record.ts): reads `status account starttime host
  worker choreo`; writes `cancel` (terminationRequested).

  KEYS[1] execution hash

  ARGV[1] channel on which to publish the execution id
  ARGV[2] execution id
  ARGV[3] name of an account's list rows of RUNNING executions, less the account

  Returns the execution's status as it was ('' when it does not exist). For RUNNING the flag
  is now set; any other status is terminal and nothing changed.
]]
-- listRow: list-row.lua, set before this script (scripts.ts).
local state = redis.call('HMGET', KEYS[1], 'status', 'account', 'starttime', 'host', 'worker', 'choreo')
local status = state[1]
if status == false then
  return ''
end
if status == 'RUNNING' then
  redis.call('HSET', KEYS[1], 'cancel', '1')
  redis.call('HSET', ARGV[3] .. state[2], ARGV[2], listRow(state[3], state[4] or '', state[5] or '', '1', state[6]))
  redis.call('PUBLISH', ARGV[1], ARGV[2])
end
return status
