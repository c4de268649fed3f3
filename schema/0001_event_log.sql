-- The append-only event log: one stream per game, one global order.
CREATE TABLE events (
    position       bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    stream_id      text        NOT NULL,
    stream_version bigint      NOT NULL CHECK (stream_version >= 1),
    message_id     text        NOT NULL,
    type           text        NOT NULL,
    data           jsonb       NOT NULL,
    occurred_at    timestamptz NOT NULL,
    recorded_at    timestamptz NOT NULL DEFAULT now(),
    -- A violation of this one means another writer appended to the stream first.
    CONSTRAINT events_stream_version_key UNIQUE (stream_id, stream_version),
    -- A violation of this one means the provider sent the same message again.
    CONSTRAINT events_message_id_key UNIQUE (message_id)
);

CREATE FUNCTION events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the event log is append-only: % on events is not allowed', TG_OP
        USING ERRCODE = 'restrict_violation';
END
$$;

CREATE TRIGGER events_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_refuse_change();
