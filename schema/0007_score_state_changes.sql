-- Every change of the score_states projection: the state of a game after each event folded into
-- it, keyed by that event's global position. Written by the projector in the transaction that
-- advances its checkpoint; the live stream (SSE) reads it, so a client that reconnects with the
-- last position it saw (Last-Event-ID) misses nothing.
CREATE TABLE score_state_changes (
    position   bigint      PRIMARY KEY REFERENCES events (position),
    game_id    text        NOT NULL,
    -- The canonical JSON of the ScoreState after the event, as `scorefeed game --json` prints it.
    state      text        NOT NULL,
    changed_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX score_state_changes_game ON score_state_changes (game_id, position);
