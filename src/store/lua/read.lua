-- Reads a session and keeps it alive (where the store takes writes).
-- KEYS: the session's hash, its log. Answers `[v, st, false, false,
-- false, false, log...]` (the four request fields are never read here: a
-- compare-and-set answers them to Enrich); missing fields are nil.
local r = redis.call('HMGET', KEYS[1], 'v', 'st')
local log = redis.call('LRANGE', KEYS[2], 0, -1)
if r[1] or #log > 0 then
  -- pcall: a store that refuses writes (a read-only replica) still reads.
  redis.pcall('PEXPIRE', KEYS[1], ARGV[1])
  redis.pcall('PEXPIRE', KEYS[2], ARGV[1])
end
local out = {r[1], r[2], false, false, false, false}
for i = 1, #log do out[6 + i] = log[i] end
return out
