-- Drops a session's option sets; answers how many there were.
local n = redis.call('HLEN', KEYS[1])
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return n
