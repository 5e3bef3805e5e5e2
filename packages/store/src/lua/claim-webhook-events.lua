--[[
  Claims the runs' events in the webhook outbox for one dispatcher: each is leased by moving its
  score to the end of the lease, so no other dispatcher takes it meanwhile and, if this one dies
  before it has made the event's deliveries, another takes it when the lease ends. Each event comes
  with the fields of its run's record that its deliveries need, read in the same call: a claim of
  many events costs one round trip, not one more per event.

  An event is queued scored by its run's start or end time (webhook-outbox.lua), which its record
  keeps: one whose score is anything else was leased before, by a dispatcher (of any version) that
  died or failed before it settled it, and its deliveries may exist already, delivered or not. Its
  dispatcher opens each before it sends it; one claimed for the first time is sent first, then
  opened with its attempt.

  KEYS[1] the webhook outbox sorted set

  ARGV[1] now (epoch ms)
  ARGV[2] lease (ms)
  ARGV[3] most events to claim
  ARGV[4] the prefix of the records' keys (`<prefix>:exec:`; the record of execution <id> is
          ARGV[4] .. <id>, a key of KEYS[1]'s hash slot)
  ARGV[5..] the record's fields to read; `starttime` and `endtime` among them

  Returns per event claimed, oldest first, three entries: its member (`<kind>\n<account>\n<execution
  id>`), 1 if it was claimed before (or its record expired), else 0, and the values of the fields
  ARGV[5..] names in its record (nil where absent; all nil once the record expired)
]]
local now = tonumber(ARGV[1])
local due = redis.call('ZRANGE', KEYS[1], '-inf', now, 'BYSCORE', 'LIMIT', 0, tonumber(ARGV[3]), 'WITHSCORES')
if #due == 0 then
  return {}
end
-- Where the start and end times are among the fields read.
local at_field = {}
for i = 5, #ARGV do
  at_field[ARGV[i]] = i - 4
end
local leased = now + tonumber(ARGV[2])
local lease = {}
local reply = {}
for at = 1, #due, 2 do
  local member = due[at]
  local score = tonumber(due[at + 1])
  table.insert(lease, leased)
  table.insert(lease, member)
  local kind, execution_id = string.match(member, '^([^\n]*)\n[^\n]*\n(.*)$')
  local values = redis.call('HMGET', ARGV[4] .. execution_id, unpack(ARGV, 5))
  local queued_at = values[at_field[kind == 'start' and 'starttime' or 'endtime']]
  table.insert(reply, member)
  table.insert(reply, (queued_at and tonumber(queued_at) == score) and 0 or 1)
  table.insert(reply, values)
end
redis.call('ZADD', KEYS[1], 'XX', unpack(lease))
return reply
