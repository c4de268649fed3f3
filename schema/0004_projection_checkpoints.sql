-- Where each projection has read the log up to. A projection's rows and its checkpoint are
-- written in the same transaction, so a restart resumes exactly where it stopped.
CREATE TABLE projection_checkpoints (
    name       text        PRIMARY KEY,
    position   bigint      NOT NULL DEFAULT 0 CHECK (position >= 0),
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- Until now score_states was written in the appending transaction: it has seen the whole log.
INSERT INTO projection_checkpoints (name, position)
SELECT 'score_states', coalesce(max(position), 0) FROM events;

-- Commands are looked up by the event that planned them.
CREATE INDEX push_commands_position ON push_commands (position);
