--[[
  Copies an account's counts of subscriptions per event type (put-webhook.lua) from the control
  slot to one shard's copy, which the scripts accepting and ending that shard's runs read
  (webhook-outbox.lua): with shards, a run's script reaches no other slot. Each change of the
  counts raises their `~version`; a copy older than the one a shard holds (two changes copied in
  the other order) is not written.

  KEYS[1] the shard's copy of the account's event counts hash

  ARGV[1] the counts' `~version`
  ARGV[2..] event type, count, … of the counts (none when the account has no subscription left)

  Returns 1 copied, 0 older than the copy there
]]
local held = tonumber(redis.call('HGET', KEYS[1], '~version') or '0')
if held >= tonumber(ARGV[1]) then
  return 0
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], '~version', ARGV[1], unpack(ARGV, 2))
return 1
