-- team-service's own schema starts here; the platform's tables (outbox, processed events)
-- live in schema "platform" and are migrated separately. Each capability adds its tables in later versions.
COMMENT ON SCHEMA public IS 'team-service';
