-- Firebase Cloud Messaging (issue 17): a push target is reached by a route.
--   apns:    a Live Activity token, pushed to APNs directly (every row before this migration);
--   fcm:     a Live Activity token pushed through FCM HTTP v1 (apns.live_activity_token), addressed
--            to the app's FCM registration token or Firebase Installation ID;
--   android: an Android device that chose to follow a game (Android 16 Live Update), reached by FCM
--            data messages; it has no APNs token.
-- All three are targets of the one planner, stored here with their planner state, and their pushes
-- share the activity_pushes outbox (route copied there so each delivery worker claims its own).
ALTER TABLE activities ADD COLUMN route text NOT NULL DEFAULT 'apns' CHECK (route IN ('apns', 'fcm', 'android'));
ALTER TABLE activities ADD COLUMN fcm_token text
    CHECK (fcm_token IS NULL OR (length(fcm_token) BETWEEN 8 AND 4096 AND fcm_token ~ '^[A-Za-z0-9_:.-]+$'));
ALTER TABLE activities ADD COLUMN fcm_kind text CHECK (fcm_kind IN ('token', 'fid'));
ALTER TABLE activities ALTER COLUMN push_token DROP NOT NULL;
ALTER TABLE activities ADD CONSTRAINT activities_route_fields CHECK (
    (route = 'apns' AND push_token IS NOT NULL AND fcm_token IS NULL AND fcm_kind IS NULL)
    OR (route = 'fcm' AND push_token IS NOT NULL AND fcm_token IS NOT NULL AND fcm_kind IS NOT NULL)
    OR (route = 'android' AND push_token IS NULL AND fcm_token IS NOT NULL AND fcm_kind IS NOT NULL));
-- A device follows a game once.
CREATE UNIQUE INDEX activities_android_follow ON activities (game_id, fcm_token) WHERE route = 'android';
CREATE INDEX activities_fcm_token ON activities (fcm_token) WHERE fcm_token IS NOT NULL;

ALTER TABLE activity_pushes ADD COLUMN route text NOT NULL DEFAULT 'apns';
