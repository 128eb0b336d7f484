-- The spend trend reads an owner's (or one team's) settled jobs of the last days by when they
-- finished.
CREATE INDEX job_settled_by_owner ON job (owner_id, finished_at) WHERE settled;
