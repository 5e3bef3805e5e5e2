--[[
  Appends progress inside a top-level block (a loop, a branch…) of a RUNNING execution: the
  entries of the steps and iterations completed since the last call, each one field of the
  execution's progress hash written once (HSET of the new fields only, never the earlier ones, so
  the cost does not grow with the number of iterations), and the record's small cursor (the
  address of the newest entry), in one step with the check of its status, its lease and its
  termination flag. checkpoint-execution.lua appends the results of the top-level steps to the
  same hash, the run's one progress log; end-execution.lua deletes it. Called with no entries it only adds run events (the start
  of a step with an effect, written before the step runs), with the same checks.

  Record fields (RECORD_FIELDS in execution-record.ts): reads `status terminate lease cancel`;
  writes `cursor`.

  KEYS[1] execution hash
  KEYS[2] the execution's progress hash (address → JSON)
  KEYS[3] the execution's step history (step-history.lua)
  KEYS[4] the execution's run events (run-events.lua)

  ARGV[1] lease token of the caller
  ARGV[2] cursor: the address of the newest entry
  ARGV[3] how many step events follow ARGV[9] (n)
  ARGV[4] step history: how many of the first events to keep, with ARGV[5]
  ARGV[5] step history: how many of the last events to keep
  ARGV[6] run events since the last write, one per line ('' for none): added to KEYS[4]
  ARGV[7] run events: how many the list keeps
  ARGV[8] run events: the channel on which to publish that some were added
  ARGV[9] run events: the command that publishes (PUBLISH, or SPUBLISH on a Cluster)
  ARGV[10] … ARGV[9 + n] step events since the last write, JSON: appended to the step history
  ARGV[10 + n], ARGV[11 + n], … address, JSON value: the entries to append (none or more)

  Returns (ScriptReply in script-replies.ts)
   Done (1)                      recorded; carry on
   DoneTerminationRequested (2)  recorded; termination was requested, stop now
   NotRunning (-5)               not recorded: the execution has ended (or is gone)
   Superseded (-6)               not recorded: the caller's lease is void
]]
--- @include "step-history.lua"
--- @include "run-events.lua"
--- @include "termination-flag.lua"
local state = redis.call('HMGET', KEYS[1], 'status', 'terminate', 'lease', 'cancel')
if state[1] ~= 'RUNNING' then
  return -5
end
if state[3] ~= ARGV[1] then
  return -6
end
local events = tonumber(ARGV[3])
if #ARGV >= 10 + events then
  redis.call('HSET', KEYS[2], unpack(ARGV, 10 + events))
  redis.call('HSET', KEYS[1], 'cursor', ARGV[2])
end
append_step_events(KEYS[3], tonumber(ARGV[4]), tonumber(ARGV[5]), 10, 9 + events)
add_run_events(KEYS[4], ARGV[6], ARGV[7], ARGV[8], ARGV[9])
if termination_requested(state[2], state[4]) then
  return 2
end
return 1
