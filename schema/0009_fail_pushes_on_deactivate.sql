-- Deactivating an activity now fails its pending pushes in the same transaction, so the delivery
-- worker no longer sweeps the whole outbox for them before every claim. This fails the pushes left
-- pending by activities deactivated before that change.
UPDATE activity_pushes p SET state = 'failed', last_reason = 'activity inactive', claimed_until = NULL
FROM activities a
WHERE a.id = p.activity_id AND NOT a.active AND p.state = 'pending';
