-- Live Activity commands planned from state changes, in the order they must be sent.
CREATE TABLE push_commands (
    id            bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id       text        NOT NULL,
    position      bigint      NOT NULL REFERENCES events (position),
    version       bigint      NOT NULL,
    event         text        NOT NULL CHECK (event IN ('update', 'end')),
    priority      integer     NOT NULL CHECK (priority IN (5, 10)),
    aps_timestamp bigint      NOT NULL,
    -- The exact APNs request body, kept as text so its bytes never change.
    payload       text        NOT NULL CHECK (octet_length(payload) <= 4096),
    created_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT push_commands_timestamp_key UNIQUE (game_id, aps_timestamp)
);
