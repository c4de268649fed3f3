-- One planner decides every push (issue 14): the per-game `push_commands`, written for every change
-- and sent by nothing, are gone. What phones receive is the `activity_pushes` outbox; `replay` prints
-- the pushes of an activity registered before the game, planned by the same planner.
DROP TABLE IF EXISTS push_commands;
