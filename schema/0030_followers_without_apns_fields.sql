-- An Android follower (and the FCM topic of a game's followers) has no APNs environment and no iOS
-- bundle id (issue 28): the columns, filled with 'production' and 'android' for them until now, are
-- NULL for route `android` and required for the routes of a Live Activity (`apns`, `fcm`).
ALTER TABLE activities ALTER COLUMN environment DROP NOT NULL, ALTER COLUMN bundle_id DROP NOT NULL;
UPDATE activities SET environment = NULL, bundle_id = NULL WHERE route = 'android';
ALTER TABLE activities ADD CONSTRAINT activities_apns_fields
    CHECK ((route = 'android') = (environment IS NULL) AND (route = 'android') = (bundle_id IS NULL));
