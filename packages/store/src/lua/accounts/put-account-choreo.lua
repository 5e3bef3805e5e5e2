--[[
  Creates or replaces one of an account's own Choreos as its next version, unless that would take
  the account past its number of Choreos or its bytes of them. Atomic, so that PUTs of one id that
  race each get a version of their own, and the one applied last is stored whole: never a mix, and
  never two with the same version.

  Versions come from a counter per id that a delete keeps, so that a version names one document for
  good: the executions that ran it say so after the id is deleted and written again.

  KEYS[1] hash: Choreo id -> stored JSON {version, updated, document} (the account's Choreos)
  KEYS[2] hash: Choreo id -> last version given (kept after a delete)

  ARGV[1] Choreo id
  ARGV[2] the document, as sent
  ARGV[3] now, epoch milliseconds
  ARGV[4] most Choreos the account may keep (0: no limit)
  ARGV[5] most bytes the account's stored Choreos may take together (0: no limit)

  Returns, named rather than numbered (the numbers of ScriptReply are the executions' scripts'):
   {'created', version}
   {'replaced', version}
   {'too-many', count}        refused: the account already keeps `count` Choreos, its limit
   {'too-many-bytes', bytes}  refused: the account's Choreos would take `bytes` bytes, past its limit
]]
local id = ARGV[1]
local existing = redis.call('HSTRLEN', KEYS[1], id)
local max_count = tonumber(ARGV[4])
if existing == 0 and max_count > 0 then
  local count = redis.call('HLEN', KEYS[1])
  if count >= max_count then
    return { 'too-many', count }
  end
end
local version = (tonumber(redis.call('HGET', KEYS[2], id)) or 0) + 1
local value = cjson.encode({ version = version, updated = tonumber(ARGV[3]), document = ARGV[2] })
local max_bytes = tonumber(ARGV[5])
if max_bytes > 0 then
  -- Counted from the values themselves, not kept in a counter that could drift from them.
  local total = #value - existing
  for _, other in ipairs(redis.call('HKEYS', KEYS[1])) do
    total = total + redis.call('HSTRLEN', KEYS[1], other)
  end
  if total > max_bytes then
    return { 'too-many-bytes', total }
  end
end
redis.call('HSET', KEYS[2], id, version)
redis.call('HSET', KEYS[1], id, value)
return { existing == 0 and 'created' or 'replaced', version }
