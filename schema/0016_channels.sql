-- Broadcast channels (issue 16): one per game and environment, created through Apple's channel
-- management API on first use, served to apps as the id ActivityKit takes (base64). A channel that
-- APNs no longer knows, or that was deleted after the game, keeps its row with deleted_at set.
CREATE TABLE channels (
    id             bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id        text        NOT NULL,
    environment    text        NOT NULL CHECK (environment IN ('production', 'sandbox')),
    channel_id     text        NOT NULL,
    storage_policy integer     NOT NULL DEFAULT 0 CHECK (storage_policy IN (0, 1)),
    created_at     timestamptz NOT NULL DEFAULT now(),
    deleted_at     timestamptz,
    deleted_reason text,
    CONSTRAINT channels_channel_id_key UNIQUE (channel_id)
);

-- At most one open channel per game and environment.
CREATE UNIQUE INDEX channels_open ON channels (game_id, environment) WHERE deleted_at IS NULL;
