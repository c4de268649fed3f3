-- A push keeps the FCM registration it went to (issue 25): re-registering an activity with another
-- FCM token, or moving it to APNs, re-addresses what still waits, never the record of what was sent.
-- Set when the push is planned, re-addressed while it waits, fixed to the one it was claimed for once
-- done (as `route`, 0019). Pushes of earlier builds take their activity's registration as it is now.
ALTER TABLE activity_pushes ADD COLUMN fcm_token text, ADD COLUMN fcm_kind text;
UPDATE activity_pushes p SET fcm_token = a.fcm_token, fcm_kind = a.fcm_kind
FROM activities a WHERE a.id = p.activity_id AND p.route <> 'apns';
