--[[
  A call back arrives for a run waiting for one (control.waitForCallback): its token's entry, made
  when the run was suspended (suspend-execution.lua), is deleted, so that the URL is used once, and
  the request's body is written to the run's progress as the entry of the waiting step
  (`<address>@callback`), which the step, taken again, returns as its result. Refused when the
  entry is not there (a forged, used or expired URL), and when the run has ended or its
  termination has been requested: a call back racing a DELETE never turns into a second outcome.
  The caller then makes the run's delayed job due. The record's cursor names the entry, so that
  the take reads the progress and the checkpoint after the step deletes it (a top-level step's wait
  has no other progress: its entries are in the record).

  Record fields (RECORD_FIELDS in execution-record.ts): reads `status terminate cancel`; writes
  `cursor`.

  KEYS[1] execution hash
  KEYS[2] the execution's progress hash
  KEYS[3] the call back's entry (keys.ts, callback)

  ARGV[1] what the entry must hold: `<execution id>\n<address of the waiting step>`
  ARGV[2] address of the waiting step
  ARGV[3] JSON `{"body": …}` of the request's body
  ARGV[4] address of the call back's entry in the progress (progress-address.ts)

  Returns (ScriptReply in script-replies.ts)
   Done (1)          delivered
   NotRunning (-5)   the URL is used up, but the run has ended or is being terminated
   Unknown (-8)      no such call back: forged, used already, or expired
]]
--- @include "termination-flag.lua"
if redis.call('GET', KEYS[3]) ~= ARGV[1] then
  return -8
end
redis.call('DEL', KEYS[3])
local state = redis.call('HMGET', KEYS[1], 'status', 'terminate', 'cancel')
if state[1] ~= 'RUNNING' or termination_requested(state[2], state[3]) then
  return -5
end
redis.call('HSET', KEYS[2], ARGV[4], ARGV[3])
redis.call('HSET', KEYS[1], 'cursor', ARGV[4])
return 1
