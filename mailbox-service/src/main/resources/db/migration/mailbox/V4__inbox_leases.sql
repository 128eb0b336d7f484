-- A read of what is new leases the copies it returns instead of marking them read: they stay
-- 'delivered' with the read's lease until the reader acknowledges that lease (then 'read'), and
-- become readable again once leased_until passes unacknowledged. So a read whose answer never
-- reached its reader (a replica killed after the commit, a connection cut, a client that retried the
-- request) loses nothing. read_cursor.read_seq stays the acknowledged prefix: every copy at or
-- below it is 'read'.
ALTER TABLE delivery ADD COLUMN lease_id uuid;
ALTER TABLE delivery ADD COLUMN leased_until timestamptz;
