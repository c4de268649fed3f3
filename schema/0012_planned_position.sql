-- Fan-out off the critical path (issue 15): each activity records the global position of the last
-- event of its game it has been planned through. The projector plans the first activities of a game
-- in the page's own transaction; the rest catch up in chunks right after (ProjectionPage.fanOut),
-- each activity in event order, so delivery starts while the rest of a large audience is planned.
-- Activities that existed before were planned through their game's projected position.
ALTER TABLE activities ADD COLUMN planned_position bigint NOT NULL DEFAULT 0;

UPDATE activities a SET planned_position = s.position FROM score_states s WHERE s.game_id = a.game_id;
