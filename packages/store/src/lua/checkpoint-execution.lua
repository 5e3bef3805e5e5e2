--[[
  Records the progress of a RUNNING execution after a completed step (the step reached, the
  results and outputs so far), in one step with the check of its status, its lease and its
  cancellation flag.

  KEYS[1] execution hash

  ARGV[1] index of the next step to run
  ARGV[2] results of the completed steps, JSON
  ARGV[3] outputs computed so far, JSON
  ARGV[4] lease token of the caller

  Returns
   0  recorded; carry on
   1  recorded; termination was requested, stop now
  -1  not recorded: the execution is gone or no longer RUNNING
  -2  not recorded: the caller's lease is void (another worker has taken the execution since, or
      the caller released it)
]]
local state = redis.call('HMGET', KEYS[1], 'status', 'cancel', 'lease')
if state[1] ~= 'RUNNING' then
  return -1
end
if state[3] ~= ARGV[4] then
  return -2
end
redis.call('HSET', KEYS[1], 'step', ARGV[1], 'results', ARGV[2], 'output', ARGV[3])
if state[2] == '1' then
  return 1
end
return 0
