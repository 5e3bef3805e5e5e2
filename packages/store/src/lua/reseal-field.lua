--[[
  Writes a value sealed again under the current key, only where it was not changed meanwhile,
  so that re-encryption never writes over a preset or token stored while it ran.

  KEYS[1] a hash (an account's presets, or one stored token)

  ARGV[1] field
  ARGV[2] its value as read before re-encryption
  ARGV[3] the value re-encrypted

  Returns 1 when written, 0 when the field had changed (or is gone) and was left alone.
]]
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
