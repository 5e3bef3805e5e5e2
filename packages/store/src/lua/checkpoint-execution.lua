--[[
  Records the progress of a RUNNING execution after completed top-level steps, in one step with
  the check of its status, its lease and its termination flag: their results appended to the
  execution's progress hash, each one field by its address (the step's id; a block's, with the
  steps inside it that share the top level's results), as record-progress.lua appends a block's —
  never the earlier ones again, so the cost does not grow with the number of steps completed —
  and the step reached and the outputs so far in the record, with its cursor (the newest entry's
  address) saying that the progress has entries. What a completed block or wait recorded inside
  (its steps, its iterations, its due time) is deleted: its result stands for it. The take reads
  the progress back whole: where the run resumes and its results are read from it (resumePoint in
  @ces/language).

  Records suspended by earlier versions keep a top-level wait's entries in the field `wait`, which
  the checkpoint after the wait deletes; records checkpointed by earlier versions keep the results
  map `results`, which is left as it is: the take reads it with the progress until the run ends.

  Record fields (RECORD_FIELDS in execution-record.ts): reads `status terminate lease cancel`;
  writes `step output`, `cursor` with entries; deletes `wait`.

  KEYS[1] execution hash
  KEYS[2] the execution's progress hash (address → JSON)
  KEYS[3] the execution's step history (step-history.lua)
  KEYS[4] the execution's run events (run-events.lua)

  ARGV[1] the checkpoint, a JSON object:
    lease               lease token of the caller
    next_step           index of the next top-level step to run
    step_events         how many step events follow ARGV[2] (n)
    superseded          how many addresses of entries to delete follow them (m)
    history_first       step history: how many of the first events to keep, with history_last
    history_last        step history: how many of the last events to keep
    run_events          run events since the last write, one per line ('' for none)
    run_events_bound    run events: how many the list keeps
    run_events_channel  run events: the channel on which to publish that some were added
    publish             PUBLISH, or SPUBLISH on a Cluster: the command that publishes run events and ends
  ARGV[2] outputs computed so far, JSON: an argument of its own, so that they are not escaped into
          ARGV[1] and decoded out of it again
  ARGV[3] … ARGV[2 + n] step events since the last write, JSON: appended to the step history
  ARGV[3 + n] … ARGV[2 + n + m] addresses of the entries the completed blocks and waits recorded,
          deleted from KEYS[2]
  ARGV[3 + n + m], ARGV[4 + n + m], … address, JSON value: the results to append (none or more)

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
local args = cjson.decode(ARGV[1])
local state = redis.call('HMGET', KEYS[1], 'status', 'terminate', 'lease', 'cancel')
if state[1] ~= 'RUNNING' then
  return -5
end
if state[3] ~= args.lease then
  return -6
end
local first_superseded = 3 + args.step_events
local first_entry = first_superseded + args.superseded
-- In slices: unpack takes a few thousand values at most, and a loop may have completed more.
for from = first_superseded, first_entry - 1, 1000 do
  redis.call('HDEL', KEYS[2], unpack(ARGV, from, math.min(from + 999, first_entry - 1)))
end
if #ARGV > first_entry then
  redis.call('HSET', KEYS[2], unpack(ARGV, first_entry))
  redis.call('HSET', KEYS[1], 'step', args.next_step, 'output', ARGV[2], 'cursor', ARGV[#ARGV - 1])
else
  redis.call('HSET', KEYS[1], 'step', args.next_step, 'output', ARGV[2])
end
append_step_events(KEYS[3], args.history_first, args.history_last, 3, first_superseded - 1)
add_run_events(KEYS[4], args.run_events, args.run_events_bound, args.run_events_channel, args.publish)
redis.call('HDEL', KEYS[1], 'wait')
if termination_requested(state[2], state[4]) then
  return 2
end
return 1
