-- Keys per app (issue 25): every registration belongs to the app whose key made it, and what is
-- derived from it (its pushes, its broadcast channel) with it; another app's key cannot see, change,
-- delete or re-route it. Rows of earlier builds, made with the keys of one app, belong to the default
-- app (`default`: the app of a bare key in SCOREFEED_APP_KEYS).
ALTER TABLE activities ADD COLUMN app text NOT NULL DEFAULT 'default'
    CONSTRAINT activities_app_name CHECK (app ~ '^[a-z][a-z0-9-]{0,31}$');
ALTER TABLE devices ADD COLUMN app text NOT NULL DEFAULT 'default'
    CONSTRAINT devices_app_name CHECK (app ~ '^[a-z][a-z0-9-]{0,31}$');
-- Apple keeps broadcast channels per bundle id, so each app has its own channel of a game.
ALTER TABLE channels ADD COLUMN app text NOT NULL DEFAULT 'default'
    CONSTRAINT channels_app_name CHECK (app ~ '^[a-z][a-z0-9-]{0,31}$');
DROP INDEX channels_open;
CREATE UNIQUE INDEX channels_open ON channels (game_id, environment, app) WHERE deleted_at IS NULL;
-- Whose an FCM registration is, and retiring the devices of one FCM says is gone, without a scan.
CREATE INDEX devices_fcm_token ON devices (fcm_token) WHERE fcm_token IS NOT NULL;
