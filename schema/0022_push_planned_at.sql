-- When a push was written to the outbox, on the database's clock (`send_at` is the planner's clock,
-- which a replay sets to the game's own time). Delivery uses it to tell a backlog from a push that
-- is merely due: an Android follower's message that waited 30 s while a newer one is behind it is
-- superseded instead of sent (after an outage or a pause, a device gets the newest state, not a
-- burst of old ones over FCM's 240 a minute).
ALTER TABLE activity_pushes ADD COLUMN planned_at timestamptz NOT NULL DEFAULT now();
