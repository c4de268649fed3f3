-- Live Activities registered per game, each with its push throttle state.
CREATE TABLE activities (
    id                 bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id            text        NOT NULL,
    push_token         text        NOT NULL CHECK (push_token ~ '^[0-9a-f]+$' AND length(push_token) BETWEEN 16 AND 512),
    environment        text        NOT NULL CHECK (environment IN ('production', 'sandbox')),
    bundle_id          text        NOT NULL CHECK (bundle_id <> ''),
    frequent_updates   boolean     NOT NULL DEFAULT false,
    registered_at      timestamptz NOT NULL DEFAULT now(),
    ended_at           timestamptz,
    active             boolean     NOT NULL DEFAULT true,
    deactivated_reason text,
    -- The ActivityThrottle state (JSON) and when it must be ticked next without a new event.
    throttle           jsonb       NOT NULL,
    next_deadline      timestamptz,
    CONSTRAINT activities_push_token_key UNIQUE (push_token)
);

CREATE INDEX activities_game ON activities (game_id) WHERE active;
CREATE INDEX activities_deadline ON activities (next_deadline) WHERE active AND next_deadline IS NOT NULL;

-- The transactional outbox: pushes to one activity each, written in the transaction that advances
-- the projection, claimed by delivery workers with FOR UPDATE SKIP LOCKED.
CREATE TABLE activity_pushes (
    id              bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    activity_id     bigint      NOT NULL REFERENCES activities (id),
    game_id         text        NOT NULL,
    -- The event that made it (NULL for a push made due by time alone).
    position        bigint      REFERENCES events (position),
    -- Stable across retries, so APNs and the phone can recognise a repeat.
    apns_id         uuid        NOT NULL,
    event           text        NOT NULL CHECK (event IN ('update', 'end')),
    priority        integer     NOT NULL CHECK (priority IN (5, 10)),
    aps_timestamp   bigint      NOT NULL,
    expiration      bigint      NOT NULL,
    reason          text        NOT NULL,
    payload         text        NOT NULL CHECK (octet_length(payload) <= 4096),
    send_at         timestamptz NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    state           text        NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
    attempts        integer     NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    claimed_until   timestamptz,
    last_status     integer,
    last_reason     text,
    sent_at         timestamptz,
    CONSTRAINT activity_pushes_apns_id_key UNIQUE (apns_id),
    CONSTRAINT activity_pushes_timestamp_key UNIQUE (activity_id, aps_timestamp)
);

CREATE INDEX activity_pushes_due ON activity_pushes (next_attempt_at) WHERE state = 'pending';
CREATE INDEX activity_pushes_game ON activity_pushes (game_id, id);

-- Every delivery attempt and what APNs (or the network) answered.
CREATE TABLE push_attempts (
    id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    push_id      bigint      NOT NULL REFERENCES activity_pushes (id),
    attempted_at timestamptz NOT NULL DEFAULT now(),
    status       integer,
    reason       text,
    outcome      text        NOT NULL
);

CREATE INDEX push_attempts_push ON push_attempts (push_id);
