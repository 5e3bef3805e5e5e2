--[[
  A worker hands an execution back to the queue (graceful shutdown): it no longer runs on
  that host until another worker takes it.

  KEYS[1] execution hash

  ARGV[1] worker id that is releasing it

  Returns 1 when released, 0 when it is not RUNNING or held by another worker.
]]
local state = redis.call('HMGET', KEYS[1], 'status', 'worker')
if state[1] ~= 'RUNNING' or state[2] ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[1], 'host', '', 'worker', '')
return 1
