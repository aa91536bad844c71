-- Removes a session's state (hash, executed list, log); answers 1 if it
-- existed.
local n = redis.call('DEL', KEYS[1]) + redis.call('DEL', KEYS[3])
redis.call('DEL', KEYS[2])
return math.min(n, 1)
