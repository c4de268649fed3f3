-- Planning once per group, not per token (issue 28, point 2). The Live Activities of a game whose
-- throttle state is the same share one row of `target_groups`, which holds that state: one decision
-- per group, and one outbox row per planned message per group (kind `group`), walked over the group's
-- active members in id order from a durable cursor (`walked_through`, the id of the last member
-- passed; `walked_at`, when). A member's success is the cursor passing it; only what differs (a retry,
-- a failure, a deactivation) becomes a row of its own (kind `push`). Activities registered before this
-- migration, Android followers and FCM topics keep their own throttle state, as before.
CREATE TABLE target_groups (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id text NOT NULL,
    -- How its members are reached: straight to APNs or through FCM (a member that changes route leaves).
    route text NOT NULL CHECK (route IN ('apns', 'fcm')),
    frequent_updates boolean NOT NULL,
    -- Its first member's registration: the group's 8 hours count from it.
    registered_at timestamptz NOT NULL,
    throttle_state text NOT NULL,
    -- Nothing planned yet: a new registration of the same kind may join it.
    fresh boolean NOT NULL DEFAULT true,
    next_deadline timestamptz,
    planned_position bigint NOT NULL,
    ended_at timestamptz,
    -- Its members moved to a group whose state had become the same (it is planned no more).
    merged_into bigint REFERENCES target_groups (id),
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX target_groups_game ON target_groups (game_id) WHERE merged_into IS NULL AND ended_at IS NULL;
CREATE INDEX target_groups_deadline ON target_groups (next_deadline)
    WHERE next_deadline IS NOT NULL AND merged_into IS NULL;

ALTER TABLE activities ADD COLUMN group_id bigint REFERENCES target_groups (id),
    -- When it joined its group: the group's messages from then on are its own (what the activity's
    -- delivery picture counts, derived from the walks).
    ADD COLUMN grouped_at timestamptz;
-- A grouped activity's throttle state is its group's.
ALTER TABLE activities DROP CONSTRAINT activities_throttle_one_form;
ALTER TABLE activities ADD CONSTRAINT activities_throttle_one_place CHECK (
    CASE WHEN group_id IS NULL THEN (throttle_state IS NULL) <> (throttle IS NULL)
         ELSE throttle_state IS NULL AND throttle IS NULL AND route IN ('apns', 'fcm') END);
-- The walk: a group's active members in id order, from the cursor, a batch at a time.
CREATE INDEX activities_group_walk ON activities (group_id, id) WHERE active AND group_id IS NOT NULL;

ALTER TABLE outbox ADD COLUMN group_id bigint REFERENCES target_groups (id),
    ADD COLUMN walked_through bigint, ADD COLUMN walked_at timestamptz;
ALTER TABLE outbox DROP CONSTRAINT outbox_kind, DROP CONSTRAINT outbox_target;
ALTER TABLE outbox
    ADD CONSTRAINT outbox_kind CHECK (kind IN ('push', 'broadcast', 'start', 'group')),
    ADD CONSTRAINT outbox_target CHECK (
        (kind = 'push') = (activity_id IS NOT NULL) AND (kind = 'push') = (route IS NOT NULL)
        AND (kind = 'broadcast') = (channel_row IS NOT NULL) AND (kind = 'start') = (device_id IS NOT NULL)
        AND (kind = 'group') = (group_id IS NOT NULL) AND (kind = 'group') = (walked_through IS NOT NULL)),
    ADD CONSTRAINT outbox_group_timestamp UNIQUE (group_id, aps_timestamp);
-- The activities planned with a state of their own, by game in id order (the page's first ones, the
-- fan-out's behind ones), found without reading the grouped ones of a game of 100,000.
CREATE INDEX activities_own_state ON activities (game_id, id) WHERE active AND group_id IS NULL;
