-- Runners on base in the current half-inning.
ALTER TABLE score_states
    ADD COLUMN on_first  boolean NOT NULL DEFAULT false,
    ADD COLUMN on_second boolean NOT NULL DEFAULT false,
    ADD COLUMN on_third  boolean NOT NULL DEFAULT false;
