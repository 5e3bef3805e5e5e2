--[[
  Claims the schedules that are due for one firer: each is leased by moving its score to the end
  of the lease, so no other firer takes it meanwhile and, if this firer dies, another takes it
  when the lease ends. Each schedule's hash comes with it, read in the same step: the firer needs
  it at once, and a read after the claim would be one more round trip before the ticks start.

  KEYS[1] the due schedules sorted set

  ARGV[1] now (epoch ms)
  ARGV[2] lease (ms)
  ARGV[3] most schedules to claim
  ARGV[4] what every schedule hash's key starts with: a member `<account>\n<name>` has its hash at
          ARGV[4] .. account .. ':' .. name (a key of KEYS[1]'s hash slot)

  Returns, oldest due first, one pair per schedule claimed: its member (`<account>\n<name>`) and
  its hash as HGETALL answers it (empty when the schedule no longer exists).
]]
local now = tonumber(ARGV[1])
local due = redis.call('ZRANGE', KEYS[1], '-inf', now, 'BYSCORE', 'LIMIT', 0, tonumber(ARGV[3]))
local until_ms = now + tonumber(ARGV[2])
local claimed = {}
for _, member in ipairs(due) do
  redis.call('ZADD', KEYS[1], until_ms, member)
  local newline = string.find(member, '\n', 1, true)
  local hash = {}
  if newline then
    hash = redis.call('HGETALL', ARGV[4] .. string.sub(member, 1, newline - 1) .. ':' .. string.sub(member, newline + 1))
  end
  claimed[#claimed + 1] = { member, hash }
end
return claimed
