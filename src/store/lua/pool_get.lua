-- Finds an option set and marks it used. KEYS as `POOL_PUT`; ARGV: set
-- id, now (ms), TTL (ms).
local blob = redis.call('HGET', KEYS[1], ARGV[1])
if blob then
  redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
  for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ARGV[3]) end
end
return blob
