-- No query looks tasks up by plan (a plan lists its task ids itself), yet every update of a task
-- that is not HOT wrote an entry into this index too; a claim is never HOT, since it changes the
-- claim index's columns.
DROP INDEX task_plan;
