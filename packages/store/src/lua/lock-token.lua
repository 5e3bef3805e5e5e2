--[[
  Takes the lock of an account's token (TokenStorage LockToken, RetrieveToken with LockToken),
  unless it is held: a lock lasts until the token is stored again or deleted, or until it lapses.

  KEYS[1] the token's hash

  ARGV[1] now, epoch milliseconds
  ARGV[2] how long the lock lasts, in milliseconds

  Returns {1, sealed value, valid} when this call took the lock, {-1} when it is held, {0} when
  there is no such token (never stored, deleted or expired).
]]
local state = redis.call('HMGET', KEYS[1], 'value', 'valid', 'lock')
if state[1] == false then
  return {0}
end
local now = tonumber(ARGV[1])
if tonumber(state[3] or '0') > now then
  return {-1}
end
redis.call('HSET', KEYS[1], 'lock', tostring(now + tonumber(ARGV[2])))
return {1, state[1], state[2]}
