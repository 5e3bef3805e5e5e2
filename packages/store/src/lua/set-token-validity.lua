--[[
  Marks an account's token valid or invalid (TokenStorage SetValid), if it exists.

  KEYS[1] the token's hash

  ARGV[1] '1' valid, '0' invalid

  Returns 1 when changed, 0 when there is no such token.
]]
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('HSET', KEYS[1], 'valid', ARGV[1])
return 1
