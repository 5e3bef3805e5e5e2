--[[
  Asks for a RUNNING execution to stop after its current step: sets its cancellation flag,
  which every worker sees between steps, and publishes the request for the worker running it.

  KEYS[1] execution hash

  ARGV[1] channel on which to publish the execution id
  ARGV[2] execution id

  Returns the execution's status as it was ('' when it does not exist). For RUNNING the flag
  is now set; any other status is terminal and nothing changed.
]]
local status = redis.call('HGET', KEYS[1], 'status')
if status == false then
  return ''
end
if status == 'RUNNING' then
  redis.call('HSET', KEYS[1], 'cancel', '1')
  redis.call('PUBLISH', ARGV[1], ARGV[2])
end
return status
