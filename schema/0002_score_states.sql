-- The score projection: one row per game, folded from the log.
CREATE TABLE score_states (
    game_id    text        PRIMARY KEY,
    home       jsonb       NOT NULL,
    away       jsonb       NOT NULL,
    starts_at  timestamptz NOT NULL,
    home_score integer     NOT NULL CHECK (home_score >= 0),
    away_score integer     NOT NULL CHECK (away_score >= 0),
    inning     integer     NOT NULL CHECK (inning >= 0),
    half       text        NOT NULL CHECK (half IN ('top', 'bottom')),
    outs       integer     NOT NULL CHECK (outs BETWEEN 0 AND 3),
    status     text        NOT NULL CHECK (status IN ('scheduled', 'inprogress', 'delayed', 'suspended',
                                                      'closed', 'cancelled', 'postponed')),
    version    bigint      NOT NULL,
    updated_at timestamptz NOT NULL,
    -- Checkpoint: global position of the last event folded into this row.
    position   bigint      NOT NULL REFERENCES events (position)
);

CREATE INDEX score_states_status_starts_at ON score_states (status, starts_at);
