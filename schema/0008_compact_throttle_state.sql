-- The throttle state in a compact text form (ActivityThrottle.storageText) instead of JSON: writing
-- and reading it for every activity of a game on every event was most of the time spent planning
-- pushes. Rows written before keep their JSON until their next save; exactly one form is set.
ALTER TABLE activities ADD COLUMN throttle_state text;
ALTER TABLE activities ALTER COLUMN throttle DROP NOT NULL;
ALTER TABLE activities ADD CONSTRAINT activities_throttle_one_form
    CHECK ((throttle_state IS NULL) <> (throttle IS NULL));
