-- Nothing looks an outbox row up by its event id, and every id is a fresh random UUID made where
-- the event is, so the unique index on it only cost work: each append inserted a random key into
-- it and each publish mark (an update that moves the row) inserted another, on the write path of
-- every change that has an event. Consumers deduplicate by event id in platform.processed_event.
ALTER TABLE platform.outbox DROP CONSTRAINT outbox_event_id_key;
