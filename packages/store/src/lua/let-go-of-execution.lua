--[[
  Shared by the scripts by which a worker lets go of an execution it holds while it stays RUNNING,
  handing it back (hand-back-execution.lua) or suspending it (suspend-execution.lua), included by
  each of them: its host is '' again, as while it first waited; it leaves its account's executing
  set (see take-execution.lua) and the set of the executions its worker holds (keys.ts,
  workerExecutions), and its list row says so. The lease let go of is kept as `letgo`
  (letGoLease): a client that lost the reply on a dropped connection sends the call again, and
  must hear that it was done.

  Record fields (RECORD_FIELDS in execution-record.ts): reads `status lease letgo account id
  starttime terminate choreo worker cancel`; clears `host worker lease`, writes `letgo`.

  Returns the reply when there is nothing to do (ScriptReply in script-replies.ts: Done (1) when
  this very lease was let go of before, NotRunning (-5), Superseded (-6)), or nil and the fields
  read (HMGET order above) when it was let go of now.
]]
--- @include "list-row.lua"
--- @include "termination-flag.lua"
local function let_go_of_execution(execution, lease, executing_prefix, rows_prefix, worker_prefix)
  local state = redis.call('HMGET', execution, 'status', 'lease', 'letgo', 'account', 'id', 'starttime', 'terminate', 'choreo', 'worker', 'cancel')
  if state[1] ~= 'RUNNING' then
    return -5, state
  end
  if state[2] == '' and state[3] == lease then
    return 1, state
  end
  if state[2] ~= lease then
    return -6, state
  end
  redis.call('HSET', execution, 'host', '', 'worker', '', 'lease', '', 'letgo', lease)
  redis.call('SREM', executing_prefix .. state[4], state[5])
  if state[9] and state[9] ~= '' then
    redis.call('SREM', worker_prefix .. state[9], state[5])
  end
  redis.call('HSET', rows_prefix .. state[4], state[5], list_row(state[6], '', '', termination_requested(state[7], state[10]), state[8]))
  return nil, state
end
