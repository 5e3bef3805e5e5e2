--[[
  Opens deliveries: each one's record, unless it exists (a dispatcher that made it and died before
  taking its event out of the outbox makes it again: the id is the same, and what it recorded
  since, delivered above all, stays), and its place among its subscription's recent deliveries.
  The deliveries of the events a dispatcher claimed together go in one call: one round trip and
  one script run for them all. Each stands alone: one that exists changes nothing of the others.

  KEYS[1] the webhook outbox sorted set: not written; named so that the call runs where the
          deliveries' keys are, which share its hash slot

  ARGV[1] seconds a record is kept
  ARGV[2] most recent deliveries a subscription lists
  ARGV[3] the number of deliveries, n; then n groups of 10 values, the i-th group from
          ARGV[4 + 10 * (i - 1)]:
    +0  the delivery's hash (a key of KEYS[1]'s hash slot, named by the caller)
    +1  the subscription's recent deliveries sorted set (likewise)
    +2  the delivery's id
    +3  now (epoch ms): its creation, the start of its round and its first attempt's time
    +4  account
    +5  webhook (the subscription's name, or the run's own call-back)
    +6  execution id
    +7  type (execution.started, execution.ended, execution.failed)
    +8  url
    +9  body

  Returns one reply per delivery, in order: 1 opened, 0 it existed already
]]
local kept = tonumber(ARGV[1])
local most_recent = tonumber(ARGV[2])
local replies = {}
for i = 1, tonumber(ARGV[3]) do
  local at = 4 + 10 * (i - 1)
  local key, recent, id, now = ARGV[at], ARGV[at + 1], ARGV[at + 2], ARGV[at + 3]
  if redis.call('EXISTS', key) == 1 then
    replies[i] = 0
  else
    redis.call('HSET', key,
      'account', ARGV[at + 4], 'webhook', ARGV[at + 5], 'execution', ARGV[at + 6], 'type', ARGV[at + 7],
      'url', ARGV[at + 8], 'body', ARGV[at + 9], 'created', now, 'since', now, 'state', 'pending',
      'round', '0', 'attempts', '0', 'nextattempt', now)
    redis.call('EXPIRE', key, kept)
    redis.call('ZADD', recent, tonumber(now), id)
    redis.call('ZREMRANGEBYRANK', recent, 0, -most_recent - 1)
    redis.call('EXPIRE', recent, kept)
    replies[i] = 1
  end
end
return replies
