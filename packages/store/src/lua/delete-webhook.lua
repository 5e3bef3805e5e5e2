--[[
  Deletes one webhook subscription of an account, and its share of the account's counts of
  subscriptions per event type (put-webhook.lua). Its deliveries still pending find it gone and
  end dead.

  KEYS[1] the account's subscriptions hash
  KEYS[2] the account's event counts hash (and their `~version`, raised by each change)

  ARGV[1] the subscription's name

  Returns 1 deleted, 0 there was none
]]
local earlier = redis.call('HGET', KEYS[1], ARGV[1])
if not earlier then
  return 0
end
for _, event in ipairs(cjson.decode(earlier).events) do
  if redis.call('HINCRBY', KEYS[2], event, -1) <= 0 then
    redis.call('HDEL', KEYS[2], event)
  end
end
redis.call('HDEL', KEYS[1], ARGV[1])
-- Shards' copies of the counts follow the latest version (mirror-webhook-events.lua).
redis.call('HINCRBY', KEYS[2], '~version', 1)
return 1
