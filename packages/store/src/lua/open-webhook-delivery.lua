--[[
  Opens one delivery: its record, unless it exists (a dispatcher that made it and died before
  taking its event out of the outbox makes it again: the id is the same, and what it recorded
  since, delivered above all, stays), and its place among its subscription's recent deliveries.

  KEYS[1] the delivery's hash
  KEYS[2] the subscription's recent deliveries sorted set

  ARGV[1] the delivery's id
  ARGV[2] now (epoch ms)
  ARGV[3] seconds the record is kept
  ARGV[4] most recent deliveries a subscription lists
  ARGV[5..] field, value, field, value … of the new record

  Returns 1 opened, 0 it existed already
]]
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], unpack(ARGV, 5))
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
redis.call('ZADD', KEYS[2], tonumber(ARGV[2]), ARGV[1])
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -tonumber(ARGV[4]) - 1)
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[3]))
return 1
