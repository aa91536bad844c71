-- Reads a session and keeps it alive (where the store takes writes).
-- KEYS: the session's hash, its log. Answers `[v, st, rq, rc, pq, pk,
-- log...]`: the requests only when `ARGV[2]` is "1"; missing fields are
-- nil.
local r
if ARGV[2] == '1' then
  r = redis.call('HMGET', KEYS[1], 'v', 'st', 'rq', 'rc', 'pq', 'pk')
else
  r = redis.call('HMGET', KEYS[1], 'v', 'st')
end
local log = redis.call('LRANGE', KEYS[2], 0, -1)
if r[1] or #log > 0 then
  -- pcall: a store that refuses writes (a read-only replica) still reads.
  redis.pcall('PEXPIRE', KEYS[1], ARGV[1])
  redis.pcall('PEXPIRE', KEYS[2], ARGV[1])
end
local out = {r[1], r[2], r[3] or false, r[4] or false, r[5] or false, r[6] or false}
for i = 1, #log do out[6 + i] = log[i] end
return out
