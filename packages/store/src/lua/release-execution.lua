--[[
  A worker hands an execution back to the queue (graceful shutdown): it no longer runs on
  that host until another worker takes it, so its host is '' again, as while first queued.

  KEYS[1] execution hash

  ARGV[1] lease token of the worker releasing it

  Returns 1 when released, 0 when it is not RUNNING or another take has happened since.
]]
local state = redis.call('HMGET', KEYS[1], 'status', 'lease')
if state[1] ~= 'RUNNING' or state[2] ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[1], 'host', '', 'worker', '', 'lease', '')
return 1
