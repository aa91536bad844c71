-- The executed decisions remembered for a session, newest first.
return redis.call('LRANGE', KEYS[1], 0, 15)
