-- Prepended to the scripts that write a decision (write.lua, append.lua,
-- read_append.lua): remembers an execution's "decision id|cohort" (`note`,
-- "" for none) in the session's executed list (the last 16, expiring with
-- the session).
local function remember_executed(list, note, ttl)
  if note ~= '' then
    redis.call('LPUSH', list, note)
    redis.call('LTRIM', list, 0, 15)
    redis.call('PEXPIRE', list, ttl)
  end
end
