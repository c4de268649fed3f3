-- N ScoreFeed nodes on one database (issue 18): each `serve` process records itself here and renews
-- its heartbeat every few seconds; the node holding the leadership advisory lock runs the projector
-- and the tick scheduler and says so in `leader`. A node that stops removes its row; one that died
-- is shown as gone once its heartbeat is old.
CREATE TABLE nodes (
    node_id      text        PRIMARY KEY CHECK (node_id ~ '^[A-Za-z0-9._:-]{1,128}$'),
    started_at   timestamptz NOT NULL DEFAULT now(),
    heartbeat_at timestamptz NOT NULL DEFAULT now(),
    version      text        NOT NULL,
    leader       boolean     NOT NULL DEFAULT false
);
