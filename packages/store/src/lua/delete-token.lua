--[[
  Deletes an account's token (TokenStorage DeleteToken) and its name from the account's set.

  KEYS[1] the token's hash
  KEYS[2] the set of the account's token names

  ARGV[1] token name

  Returns 1 when a token was deleted, 0 when there was none (or it had expired).
]]
redis.call('SREM', KEYS[2], ARGV[1])
return redis.call('DEL', KEYS[1])
