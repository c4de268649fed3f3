-- One outbox (issue 28): every planned message is a row of `outbox` with its kind: `push` (to one
-- target of `activities`: a Live Activity token through APNs or FCM, an Android follower, an FCM
-- topic), `broadcast` (to a channel) or `start` (push-to-start, to a device). `activity_pushes` becomes
-- `outbox`; every row of `broadcast_pushes` and `device_starts` (pending or not: the history stays)
-- moves into it with a new id, its attempts in `delivery_attempts` following it, and the two tables go.
-- Nodes sharing the database stop before this migration and start after it (README, "Upgrading").
ALTER TABLE activity_pushes RENAME TO outbox;
ALTER TABLE outbox RENAME CONSTRAINT activity_pushes_pkey TO outbox_pkey;
ALTER TABLE outbox RENAME CONSTRAINT activity_pushes_timestamp_key TO outbox_push_timestamp;
ALTER TABLE outbox RENAME CONSTRAINT activity_pushes_activity_id_fkey TO outbox_activity_id_fkey;
ALTER TABLE outbox RENAME CONSTRAINT activity_pushes_position_fkey TO outbox_position_fkey;
ALTER INDEX activity_pushes_due RENAME TO outbox_due;
ALTER INDEX activity_pushes_game RENAME TO outbox_game;
ALTER TABLE outbox
    DROP CONSTRAINT activity_pushes_payload_check,
    DROP CONSTRAINT activity_pushes_event_check,
    DROP CONSTRAINT activity_pushes_priority_check,
    DROP CONSTRAINT activity_pushes_state_check,
    ADD COLUMN kind text NOT NULL DEFAULT 'push',
    -- The target of a broadcast: its channel.
    ADD COLUMN channel_row bigint REFERENCES channels (id),
    -- The target of a start: its device.
    ADD COLUMN device_id bigint REFERENCES devices (id),
    -- Of a start: the activity it created, once the app reported its update token.
    ADD COLUMN started_activity_id bigint REFERENCES activities (id),
    -- The row's id in the table it came from, while this migration runs.
    ADD COLUMN moved_from bigint,
    ALTER COLUMN activity_id DROP NOT NULL,
    ALTER COLUMN event DROP NOT NULL,
    ALTER COLUMN priority DROP NOT NULL,
    ALTER COLUMN aps_timestamp DROP NOT NULL,
    ALTER COLUMN expiration DROP NOT NULL,
    ALTER COLUMN reason DROP NOT NULL,
    ALTER COLUMN route DROP NOT NULL,
    ALTER COLUMN route DROP DEFAULT;
ALTER TABLE outbox ALTER COLUMN kind DROP DEFAULT;

-- A broadcast's `apns-request-id` is its `apns_id`.
INSERT INTO outbox (kind, channel_row, game_id, position, apns_id, event, priority, aps_timestamp, expiration,
                    reason, payload, send_at, created_at, state, attempts, next_attempt_at, claimed_until,
                    last_status, last_reason, sent_at, trace_parent, moved_from)
SELECT 'broadcast', channel_row, game_id, position, request_id, event, priority, aps_timestamp, expiration, reason,
       payload, send_at, created_at, state, attempts, next_attempt_at, claimed_until, last_status, last_reason,
       sent_at, trace_parent, id
FROM broadcast_pushes ORDER BY id;
-- A start is due from when it was planned.
INSERT INTO outbox (kind, device_id, game_id, apns_id, payload, send_at, created_at, state, attempts, next_attempt_at,
                    claimed_until, last_status, last_reason, sent_at, started_activity_id, trace_parent, moved_from)
SELECT 'start', device_id, game_id, apns_id, payload, planned_at, planned_at, state, attempts, next_attempt_at,
       claimed_until, last_status, last_reason, sent_at, activity_id, trace_parent, id
FROM device_starts ORDER BY id;

ALTER TABLE delivery_attempts DROP CONSTRAINT delivery_attempts_one_message;
UPDATE delivery_attempts a SET push_id = o.id FROM outbox o
WHERE a.broadcast_id IS NOT NULL AND o.kind = 'broadcast' AND o.moved_from = a.broadcast_id;
UPDATE delivery_attempts a SET push_id = o.id FROM outbox o
WHERE a.start_id IS NOT NULL AND o.kind = 'start' AND o.moved_from = a.start_id;
ALTER TABLE delivery_attempts DROP COLUMN broadcast_id, DROP COLUMN start_id;
ALTER TABLE delivery_attempts RENAME COLUMN push_id TO message_id;
ALTER TABLE delivery_attempts ALTER COLUMN message_id SET NOT NULL;
ALTER TABLE delivery_attempts RENAME CONSTRAINT push_attempts_push_id_fkey TO delivery_attempts_message_id_fkey;
ALTER TABLE delivery_attempts RENAME CONSTRAINT push_attempts_pkey TO delivery_attempts_pkey;
ALTER INDEX delivery_attempts_push RENAME TO delivery_attempts_message;

DROP TABLE broadcast_pushes;
DROP TABLE device_starts;
ALTER TABLE outbox DROP COLUMN moved_from;

ALTER TABLE outbox
    ADD CONSTRAINT outbox_kind CHECK (kind IN ('push', 'broadcast', 'start')),
    -- Exactly the kind's target, and a route for a push only.
    ADD CONSTRAINT outbox_target CHECK (
        (kind = 'push') = (activity_id IS NOT NULL) AND (kind = 'push') = (route IS NOT NULL)
        AND (kind = 'broadcast') = (channel_row IS NOT NULL) AND (kind = 'start') = (device_id IS NOT NULL)),
    -- A push and a broadcast carry a Live Activity update or end; a start carries its payload alone.
    ADD CONSTRAINT outbox_update CHECK (
        kind = 'start' OR num_nulls(event, priority, aps_timestamp, expiration, reason) = 0),
    ADD CONSTRAINT outbox_event CHECK (event IN ('update', 'end')),
    ADD CONSTRAINT outbox_priority CHECK (priority IN (5, 10)),
    ADD CONSTRAINT outbox_state CHECK (state IN ('pending', 'sent', 'failed', 'superseded')),
    -- APNs takes 4 KB per push, 5 KB per broadcast.
    ADD CONSTRAINT outbox_payload CHECK (octet_length(payload) <= CASE kind WHEN 'broadcast' THEN 5120 ELSE 4096 END),
    ADD CONSTRAINT outbox_broadcast_timestamp UNIQUE (channel_row, aps_timestamp),
    -- One start per (device, game), never two.
    ADD CONSTRAINT outbox_start_once UNIQUE (device_id, game_id);
CREATE INDEX outbox_started_activity ON outbox (started_activity_id) WHERE started_activity_id IS NOT NULL;
