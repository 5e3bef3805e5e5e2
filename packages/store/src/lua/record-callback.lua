--[[
  Records a request a callback URL received, if the callback is still registered: the latest
  requests are kept, up to a number, for as long as the callback lives.

  KEYS[1] the callback URL's hash (callbackUrl)

  ARGV[1] the request as JSON
  ARGV[2] most requests kept (the oldest dropped first)
  ARGV[3] seconds the requests stay readable
  ARGV[4] name of an account's callback requests, less `<account>:<id>`

  Returns the forwarding URL ('' when none), or false when the callback is unknown or expired.
]]
local state = redis.call('HMGET', KEYS[1], 'account', 'id', 'forward')
if state[1] == false then
  return false
end
local requests = ARGV[4] .. state[1] .. ':' .. state[2]
redis.call('RPUSH', requests, ARGV[1])
redis.call('LTRIM', requests, -tonumber(ARGV[2]), -1)
redis.call('EXPIRE', requests, tonumber(ARGV[3]))
return state[3] or ''
