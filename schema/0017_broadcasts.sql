-- Broadcasts through the one planner (issue 16): a channel is a push target with its own throttle
-- (at most one broadcast per interval, coalescing to the latest state, the end at once), and its
-- broadcasts wait in their own outbox, delivered by the same worker, at least once, in order.
ALTER TABLE channels
    ADD COLUMN registered_at  timestamptz NOT NULL DEFAULT now(),
    ADD COLUMN throttle_state text,
    ADD COLUMN next_deadline  timestamptz;

CREATE INDEX channels_deadline ON channels (next_deadline) WHERE deleted_at IS NULL AND next_deadline IS NOT NULL;

CREATE TABLE broadcast_pushes (
    id              bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    channel_row     bigint      NOT NULL REFERENCES channels (id),
    game_id         text        NOT NULL,
    -- The event that made it (NULL when time alone made it due).
    position        bigint      REFERENCES events (position),
    -- Stable across retries (sent as apns-request-id).
    request_id      uuid        NOT NULL,
    event           text        NOT NULL CHECK (event IN ('update', 'end')),
    priority        integer     NOT NULL CHECK (priority IN (5, 10)),
    aps_timestamp   bigint      NOT NULL,
    expiration      bigint      NOT NULL,
    reason          text        NOT NULL,
    payload         text        NOT NULL CHECK (octet_length(payload) <= 5120),
    send_at         timestamptz NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    state           text        NOT NULL DEFAULT 'pending'
                                CHECK (state IN ('pending', 'sent', 'failed', 'superseded')),
    attempts        integer     NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    claimed_until   timestamptz,
    last_status     integer,
    last_reason     text,
    sent_at         timestamptz,
    CONSTRAINT broadcast_pushes_timestamp_key UNIQUE (channel_row, aps_timestamp)
);

CREATE INDEX broadcast_pushes_due ON broadcast_pushes (next_attempt_at) WHERE state = 'pending';
CREATE INDEX broadcast_pushes_game ON broadcast_pushes (game_id, id);
