--[[
  Creates or replaces one webhook subscription of an account, and keeps the account's counts of
  subscriptions per event type (read by webhook-outbox.lua) in step with what it replaces.

  KEYS[1] the account's subscriptions hash (name → JSON with an `events` array)
  KEYS[2] the account's event counts hash (and their `~version`, raised by each change)

  ARGV[1] the subscription's name
  ARGV[2] the subscription, JSON
  ARGV[3] most subscriptions the account may keep (0: no limit)
  ARGV[4] 1: replace only (a rotation of its secret), so that a subscription deleted meanwhile
          does not come back

  Returns 1 created, 0 replaced, -1 refused: the account keeps its most subscriptions already,
  -2 refused: replace only, and there is none
]]
local earlier = redis.call('HGET', KEYS[1], ARGV[1])
if not earlier and ARGV[4] == '1' then
  return -2
end
local limit = tonumber(ARGV[3])
if not earlier and limit > 0 and redis.call('HLEN', KEYS[1]) >= limit then
  return -1
end
if earlier then
  for _, event in ipairs(cjson.decode(earlier).events) do
    if redis.call('HINCRBY', KEYS[2], event, -1) <= 0 then
      redis.call('HDEL', KEYS[2], event)
    end
  end
end
for _, event in ipairs(cjson.decode(ARGV[2]).events) do
  redis.call('HINCRBY', KEYS[2], event, 1)
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
-- Shards' copies of the counts follow the latest version (mirror-webhook-events.lua).
redis.call('HINCRBY', KEYS[2], '~version', 1)
if earlier then
  return 0
end
return 1
