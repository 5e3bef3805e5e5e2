--[[
  Claims the runs' events in the webhook outbox for one dispatcher: each is leased by moving its
  score to the end of the lease, so no other dispatcher takes it meanwhile and, if this one dies
  before it has made the event's deliveries, another takes it when the lease ends.

  KEYS[1] the webhook outbox sorted set

  ARGV[1] now (epoch ms)
  ARGV[2] lease (ms)
  ARGV[3] most events to claim

  Returns the members claimed (`<kind>\n<account>\n<execution id>`), oldest first.
]]
local now = tonumber(ARGV[1])
local due = redis.call('ZRANGE', KEYS[1], '-inf', now, 'BYSCORE', 'LIMIT', 0, tonumber(ARGV[3]))
local until_ms = now + tonumber(ARGV[2])
for _, member in ipairs(due) do
  redis.call('ZADD', KEYS[1], 'XX', until_ms, member)
end
return due
