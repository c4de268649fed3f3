-- A leaner outbox (issue 15): the apns-id is derived from the activity's token (unique) and the
-- push's timestamp, and (activity_id, aps_timestamp) is already unique, so its own unique index
-- only cost every insert and every state change of a push another index entry.
ALTER TABLE activity_pushes DROP CONSTRAINT IF EXISTS activity_pushes_apns_id_key;
