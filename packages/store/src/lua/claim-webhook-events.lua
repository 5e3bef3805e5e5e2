--[[
  Claims the runs' events in the webhook outbox for one dispatcher: each is leased by moving its
  score to the end of the lease, so no other dispatcher takes it meanwhile and, if this one dies
  before it has made the event's deliveries, another takes it when the lease ends. Each event comes
  with the fields of its run's record that its deliveries need, read in the same call: a claim of
  many events costs one round trip, not one more per event.

  A lease's score is its end plus a half (an event is queued at a whole millisecond): an event
  claimed with a half was claimed before, by a dispatcher that died or failed before it settled
  it, and its deliveries may exist already, delivered or not. Its dispatcher opens each before it
  sends it; one claimed for the first time is sent first, then opened with its attempt.

  KEYS[1] the webhook outbox sorted set

  ARGV[1] now (epoch ms)
  ARGV[2] lease (ms)
  ARGV[3] most events to claim
  ARGV[4] the prefix of the records' keys (`<prefix>:exec:`; the record of execution <id> is
          ARGV[4] .. <id>, a key of KEYS[1]'s hash slot)
  ARGV[5..] the record's fields to read

  Returns per event claimed, oldest first, three entries: its member (`<kind>\n<account>\n<execution
  id>`), 1 if it was claimed before (else 0), and the values of the fields ARGV[5..] names in its
  record (nil where absent; all nil once the record expired)
]]
local now = tonumber(ARGV[1])
local due = redis.call('ZRANGE', KEYS[1], '-inf', now, 'BYSCORE', 'LIMIT', 0, tonumber(ARGV[3]), 'WITHSCORES')
if #due == 0 then
  return {}
end
local leased = now + tonumber(ARGV[2]) + 0.5
local lease = {}
local reply = {}
for at = 1, #due, 2 do
  local member = due[at]
  local score = tonumber(due[at + 1])
  table.insert(lease, leased)
  table.insert(lease, member)
  local execution_id = string.match(member, '[^\n]*\n[^\n]*\n(.*)')
  table.insert(reply, member)
  table.insert(reply, score ~= math.floor(score) and 1 or 0)
  table.insert(reply, redis.call('HMGET', ARGV[4] .. execution_id, unpack(ARGV, 5)))
end
redis.call('ZADD', KEYS[1], 'XX', unpack(lease))
return reply
