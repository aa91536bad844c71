-- Drops a session's option sets; answers how many there were. KEYS as
-- `POOL_PUT`.
local n = redis.call('HLEN', KEYS[1])
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
return n
