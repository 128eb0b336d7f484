-- Delivering a recipient's queued prefix (seq <= n, status = 'queued') walked the primary key from
-- the recipient's first copy, delivered and read ones included, so each delivery cost grew with the
-- inbox (~340 buffers and 1.5 ms per delivery statement a few thousand messages in). Queued copies
-- are now indexed by recipient and sequence; queued_at rides along for the sweeper's and the
-- backlog gauge's scans of what is queued.
DROP INDEX delivery_queued;
CREATE INDEX delivery_queued ON delivery (team_id, recipient, seq) INCLUDE (queued_at)
    WHERE status = 'queued';
