-- Android followers through an FCM topic (issue 28 point 3). An app may have its Android followers
-- of a game reached through one FCM topic per game: the follower's row (route `android`) then names
-- the topic its device subscribes to (`topic`) and is not planned (it gets the game's current state
-- once, at follow time); the topic itself is a target of its own (route `android`, fcm_kind `topic`,
-- fcm_token the topic's name), planned once for all of them. NULL for every other row.
ALTER TABLE activities ADD COLUMN topic text;
ALTER TABLE activities ADD CONSTRAINT activities_topic_follower
    CHECK (topic IS NULL OR (route = 'android' AND fcm_kind IN ('token', 'fid')));
ALTER TABLE activities DROP CONSTRAINT activities_fcm_kind_check;
ALTER TABLE activities ADD CONSTRAINT activities_fcm_kind_check CHECK (fcm_kind IN ('token', 'fid', 'topic'));
-- A topic's name is made of A-Z, a-z, 0-9, `-`, `_`, `.`, `~` and `%` (no `:`).
ALTER TABLE activities DROP CONSTRAINT activities_fcm_token_check;
ALTER TABLE activities ADD CONSTRAINT activities_fcm_token_check CHECK (
    fcm_token IS NULL OR (length(fcm_token) BETWEEN 8 AND 4096 AND (
        (fcm_kind <> 'topic' AND fcm_token ~ '^[A-Za-z0-9_:.-]+$')
        OR (fcm_kind = 'topic' AND fcm_token ~ '^[A-Za-z0-9_.~%-]+$'))));
