-- Push-to-start (issue 16): devices register their push-to-start token with the teams (or game ids)
-- the fan follows; when a followed game starts, one start is planned per (device, game), never two,
-- and the activity token the app then reports joins it.
CREATE TABLE devices (
    id            bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    start_token   text        NOT NULL CHECK (start_token ~ '^[0-9a-f]+$' AND length(start_token) BETWEEN 16 AND 512),
    environment   text        NOT NULL CHECK (environment IN ('production', 'sandbox')),
    bundle_id     text        NOT NULL,
    follows       text[]      NOT NULL,
    channels      boolean     NOT NULL DEFAULT false,
    registered_at timestamptz NOT NULL,
    active        boolean     NOT NULL DEFAULT true,
    created_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT devices_start_token_key UNIQUE (start_token)
);

CREATE TABLE device_starts (
    id              bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    device_id       bigint      NOT NULL REFERENCES devices (id),
    game_id         text        NOT NULL,
    apns_id         uuid        NOT NULL,
    payload         text        NOT NULL CHECK (octet_length(payload) <= 4096),
    planned_at      timestamptz NOT NULL,
    state           text        NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
    attempts        integer     NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    claimed_until   timestamptz,
    last_status     integer,
    last_reason     text,
    sent_at         timestamptz,
    -- The activity the start created, once the app reported its update token.
    activity_id     bigint      REFERENCES activities (id),
    CONSTRAINT device_starts_once UNIQUE (device_id, game_id)
);

CREATE INDEX device_starts_due ON device_starts (next_attempt_at) WHERE state = 'pending';
