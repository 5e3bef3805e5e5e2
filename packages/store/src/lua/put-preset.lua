--[[
  Creates or replaces one preset of an account, within the account's number of presets.

  KEYS[1] the account's presets hash

  ARGV[1] preset name
  ARGV[2] the preset as stored: JSON with each value sealed
  ARGV[3] most presets the account may keep (0: no limit)

  Returns 1 when it was created, 0 when it replaced one of the same name, -1 when the account
  already keeps ARGV[3] presets (nothing changed).
]]
local exists = redis.call('HEXISTS', KEYS[1], ARGV[1])
local most = tonumber(ARGV[3])
if exists == 0 and most > 0 and redis.call('HLEN', KEYS[1]) >= most then
  return -1
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if exists == 1 then
  return 0
end
return 1
