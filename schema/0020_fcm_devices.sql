-- Push-to-start through FCM (issue 17): a device may register its push-to-start token with the
-- app's FCM registration token or Firebase Installation ID; its starts then go through FCM
-- (apns.live_activity_token = the start token) instead of straight to APNs.
ALTER TABLE devices ADD COLUMN fcm_token text
    CHECK (fcm_token IS NULL OR (length(fcm_token) BETWEEN 8 AND 4096 AND fcm_token ~ '^[A-Za-z0-9_:.-]+$'));
ALTER TABLE devices ADD COLUMN fcm_kind text CHECK (fcm_kind IN ('token', 'fid'));
ALTER TABLE devices ADD CONSTRAINT devices_fcm_fields CHECK ((fcm_token IS NULL) = (fcm_kind IS NULL));
