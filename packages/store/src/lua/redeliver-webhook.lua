--[[
  Starts a new round of a delivery: pending again, to be sent again with the same id, whatever it
  came to before, its retries counted from now (`since`). A job of an earlier round that still runs then records nothing.

  KEYS[1] the delivery's hash

  ARGV[1] now (epoch ms)

  Returns the new round (1 or more), or 0: no such delivery
]]
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('HSET', KEYS[1], 'state', 'pending', 'nextattempt', ARGV[1], 'since', ARGV[1])
return redis.call('HINCRBY', KEYS[1], 'round', 1)
