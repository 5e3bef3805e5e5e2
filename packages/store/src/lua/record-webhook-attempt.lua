--[[
  Records one attempt of a delivery, if the delivery is still pending in the round the attempt was
  made for (a redelivery starts a new round): `delivered` and `dead` are final. A 410 also
  disables the subscription, whose GET then says so.

  KEYS[1] the delivery's hash (`state round attempts laststatus lasterror lastattempt nextattempt
          deliveredat webhook`)
  KEYS[2] the account's subscriptions hash (the delivery's `webhook` field names its entry)

  ARGV[1] the attempt, a JSON object:
    round         the round the attempt was made in
    now           when it ended, epoch ms
    status        the endpoint's HTTP status (0: none, the request failed)
    error         why it failed ('' when delivered)
    outcome       delivered, retry (at next_attempt), dead, or gone (a 410: dead and disabled)
    next_attempt  epoch ms of the next attempt, with retry

  Returns 1 recorded, 0 not: the delivery is final, gone, or in another round
]]
local args = cjson.decode(ARGV[1])
local state = redis.call('HMGET', KEYS[1], 'state', 'round', 'webhook', 'attempts')
if state[1] ~= 'pending' or tonumber(state[2]) ~= args.round then
  return 0
end
-- One HSET of every field the attempt changes: a delivery's attempt is the most frequent write here.
local fields = {
  'attempts', (tonumber(state[4]) or 0) + 1, 'laststatus', args.status, 'lasterror', args.error, 'lastattempt', args.now,
}
if args.outcome == 'delivered' then
  table.insert(fields, 'state')
  table.insert(fields, 'delivered')
  table.insert(fields, 'deliveredat')
  table.insert(fields, args.now)
elseif args.outcome == 'retry' then
  table.insert(fields, 'nextattempt')
  table.insert(fields, args.next_attempt)
else
  table.insert(fields, 'state')
  table.insert(fields, 'dead')
end
redis.call('HSET', KEYS[1], unpack(fields))
if args.outcome ~= 'retry' then
  redis.call('HDEL', KEYS[1], 'nextattempt')
end
if args.outcome == 'gone' then
  local subscription = redis.call('HGET', KEYS[2], state[3])
  if subscription then
    local decoded = cjson.decode(subscription)
    decoded.disabled = { at = args.now, reason = 'the endpoint answered 410 Gone' }
    redis.call('HSET', KEYS[2], state[3], cjson.encode(decoded))
  end
end
return 1
