-- Nothing stored twice (issue 15): the live stream derives each game's state after each event from
-- the event log itself (StateChanges.after folds the streams again, up to the projector's
-- checkpoint), so the table that held a copy of every state (73 of a season's 124 MB) goes.
DROP TABLE IF EXISTS score_state_changes;
