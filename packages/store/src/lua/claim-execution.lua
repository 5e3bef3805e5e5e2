--[[
  A worker takes an execution: records its host, its worker id and a lease (a token unique to
  this take) when the execution is still RUNNING, and returns the whole record either way, so
  the worker can skip a finished one. The lease fences off any earlier holder: its checkpoints
  and its finish no longer apply once another take has happened.

  KEYS[1] execution hash

  ARGV[1] host address of the worker
  ARGV[2] worker id
  ARGV[3] lease token

  Returns the record as a flat field/value list, or an empty list when it does not exist.
]]
if redis.call('HGET', KEYS[1], 'status') == 'RUNNING' then
  redis.call('HSET', KEYS[1], 'host', ARGV[1], 'worker', ARGV[2], 'lease', ARGV[3])
end
return redis.call('HGETALL', KEYS[1])
