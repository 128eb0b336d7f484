-- A task is rewritten several times in its life (claimed, heartbeats, completed). With full pages
-- every new version of a row went to another page, most often a new one at the end of the table
-- (an extension of the relation under its lock, a second page dirtied and logged); room left on
-- each page keeps a row's versions together.
ALTER TABLE task SET (fillfactor = 85);
