--[[
  Claims the schedules that are due for one firer: each is leased by moving its score to the end
  of the lease, so no other firer takes it meanwhile and, if this firer dies, another takes it
  when the lease ends.

  KEYS[1] the due schedules sorted set

  ARGV[1] now (epoch ms)
  ARGV[2] lease (ms)
  ARGV[3] most schedules to claim

  Returns the members claimed (`<account>\n<name>`), oldest due first.
]]
local now = tonumber(ARGV[1])
local due = redis.call('ZRANGE', KEYS[1], '-inf', now, 'BYSCORE', 'LIMIT', 0, tonumber(ARGV[3]))
local until_ms = now + tonumber(ARGV[2])
for _, member in ipairs(due) do
  redis.call('ZADD', KEYS[1], until_ms, member)
end
return due
