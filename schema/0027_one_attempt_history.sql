-- One history of what did not succeed, for every kind of message (issue 28): `push_attempts` becomes
-- `delivery_attempts`, each row names the message of one of the three outboxes (a push to a target, a
-- broadcast, a push-to-start), and from now on it gets only the attempts that did not succeed (a
-- retry, a failure, a deactivation, a release): a success is kept on the message's own row (`sent`,
-- `sent_at`, status 200). The rows already there stay.
ALTER TABLE push_attempts RENAME TO delivery_attempts;
ALTER INDEX push_attempts_push RENAME TO delivery_attempts_push;
ALTER TABLE delivery_attempts
    ALTER COLUMN push_id DROP NOT NULL,
    ADD COLUMN broadcast_id bigint REFERENCES broadcast_pushes (id),
    ADD COLUMN start_id bigint REFERENCES device_starts (id),
    ADD CONSTRAINT delivery_attempts_one_message CHECK (num_nonnulls(push_id, broadcast_id, start_id) = 1);
CREATE INDEX delivery_attempts_broadcast ON delivery_attempts (broadcast_id) WHERE broadcast_id IS NOT NULL;
CREATE INDEX delivery_attempts_start ON delivery_attempts (start_id) WHERE start_id IS NOT NULL;
