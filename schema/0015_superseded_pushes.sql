-- A retry never overtakes (issue 16): a push still waiting for its retry when a newer push of the
-- same activity was accepted, and any push left when the activity's end was accepted, is marked
-- superseded and never sent.
ALTER TABLE activity_pushes DROP CONSTRAINT IF EXISTS activity_pushes_state_check;
ALTER TABLE activity_pushes ADD CONSTRAINT activity_pushes_state_check
    CHECK (state IN ('pending', 'sent', 'failed', 'superseded'));
