--[[
  Records the progress of a RUNNING execution after a completed step (the step reached, the
  results and outputs so far), in one step with the check of its status, its lease and its
  termination flag.

  The step reached is past any block or wait whose progress record-progress.lua or
  suspend-execution.lua kept: that progress is deleted, with the record's cursor (and the field
  `wait`, where records suspended by earlier versions keep a top-level wait's entries).

  Record fields (RECORD_FIELDS in execution-record.ts): reads `status terminate lease cancel`;
  writes `step results output`; deletes `cursor wait`.

  KEYS[1] execution hash
  KEYS[2] the execution's progress hash
  KEYS[3] the execution's step history (step-history.lua)
  KEYS[4] the execution's run events (run-events.lua)

  ARGV[1] index of the next step to run
  ARGV[2] results of the completed steps, JSON
  ARGV[3] outputs computed so far, JSON
  ARGV[4] lease token of the caller
  ARGV[5] step history: how many of the first events to keep, with ARGV[6]
  ARGV[6] step history: how many of the last events to keep
  ARGV[7] run events since the last write, one per line ('' for none): added to KEYS[4] when the
          checkpoint is recorded
  ARGV[8] run events: how many the list keeps
  ARGV[9] run events: the channel on which to publish that some were added
  ARGV[10], ARGV[11], … step events since the last write, JSON (none or more): appended to the
          step history when the checkpoint is recorded

  Returns (ScriptReply in script-replies.ts)
   Done (1)                      recorded; carry on
   DoneTerminationRequested (2)  recorded; termination was requested, stop now
   NotRunning (-5)               not recorded: the execution has ended (or is gone)
   Superseded (-6)               not recorded: the caller's lease is void (another worker has
                                 taken the execution since, or the caller handed it back)
]]
--- @include "step-history.lua"
--- @include "run-events.lua"
--- @include "termination-flag.lua"
local state = redis.call('HMGET', KEYS[1], 'status', 'terminate', 'lease', 'cancel')
if state[1] ~= 'RUNNING' then
  return -5
end
if state[3] ~= ARGV[4] then
  return -6
end
redis.call('HSET', KEYS[1], 'step', ARGV[1], 'results', ARGV[2], 'output', ARGV[3])
append_step_events(KEYS[3], tonumber(ARGV[5]), tonumber(ARGV[6]), 10, #ARGV)
add_run_events(KEYS[4], ARGV[7], ARGV[8], ARGV[9])
if redis.call('HDEL', KEYS[1], 'cursor', 'wait') > 0 then
  redis.call('UNLINK', KEYS[2])
end
if termination_requested(state[2], state[4]) then
  return 2
end
return 1
