--[[
  A worker takes an execution: records its host and worker id when the execution is still
  RUNNING, and returns the whole record either way, so the worker can skip a finished one.

  KEYS[1] execution hash

  ARGV[1] host address of the worker
  ARGV[2] worker id

  Returns the record as a flat field/value list, or an empty list when it does not exist.
]]
if redis.call('HGET', KEYS[1], 'status') == 'RUNNING' then
  redis.call('HSET', KEYS[1], 'host', ARGV[1], 'worker', ARGV[2])
end
return redis.call('HGETALL', KEYS[1])
