--[[
  Stores a token of an account (TokenStorage StoreToken): inserted, or its value replaced. A
  token stored is valid and unlocked; its lifetime starts again.

  KEYS[1] the token's hash
  KEYS[2] the set of the account's token names

  ARGV[1] token name
  ARGV[2] the value, sealed
  ARGV[3] lifetime in milliseconds (0: none)
  ARGV[4] now, epoch milliseconds

  Returns 1.
]]
redis.call('HSET', KEYS[1], 'value', ARGV[2], 'valid', '1', 'lock', '0', 'updated', ARGV[4])
local lifetime = tonumber(ARGV[3])
if lifetime > 0 then
  redis.call('PEXPIRE', KEYS[1], lifetime)
else
  redis.call('PERSIST', KEYS[1])
end
redis.call('SADD', KEYS[2], ARGV[1])
return 1
