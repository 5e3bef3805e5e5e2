--[[
  Appends progress inside a top-level block (a loop, a branch…) of a RUNNING execution: the
  entries of the steps and iterations completed since the last call, each one field of the
  execution's progress hash written once (HSET of the new fields only, never the earlier ones, so
  the cost does not grow with the number of iterations), and the record's small cursor (the
  address of the newest entry), in one step with the check of its status, its lease and its
  termination flag. The progress hash is deleted by checkpoint-execution.lua once the block has
  completed, and by end-execution.lua.

  Record fields (RECORD_FIELDS in execution-record.ts): reads `status terminate lease cancel`;
  writes `cursor`.

  KEYS[1] execution hash
  KEYS[2] the execution's progress hash (address → JSON)
  KEYS[3] the execution's step history (step-history.lua)

  ARGV[1] lease token of the caller
  ARGV[2] cursor: the address of the newest entry
  ARGV[3] how many step events follow ARGV[5] (n)
  ARGV[4] step history: how many of the first events to keep, with ARGV[5]
  ARGV[5] step history: how many of the last events to keep
  ARGV[6] … ARGV[5 + n] step events since the last write, JSON: appended to the step history
  ARGV[6 + n], ARGV[7 + n], … address, JSON value: the entries to append (at least one)

  Returns (ScriptReply in script-replies.ts)
   Done (1)                      recorded; carry on
   DoneTerminationRequested (2)  recorded; termination was requested, stop now
   NotRunning (-5)               not recorded: the execution has ended (or is gone)
   Superseded (-6)               not recorded: the caller's lease is void
]]
--- @include "step-history.lua"
--- @include "termination-flag.lua"
local state = redis.call('HMGET', KEYS[1], 'status', 'terminate', 'lease', 'cancel')
if state[1] ~= 'RUNNING' then
  return -5
end
if state[3] ~= ARGV[1] then
  return -6
end
local events = tonumber(ARGV[3])
redis.call('HSET', KEYS[2], unpack(ARGV, 6 + events))
append_step_events(KEYS[3], tonumber(ARGV[4]), tonumber(ARGV[5]), 6, 5 + events)
redis.call('HSET', KEYS[1], 'cursor', ARGV[2])
if termination_requested(state[2], state[4]) then
  return 2
end
return 1
