-- The first activities of a game in registration order, found without reading the others (issue 28,
-- point 4): the projector plans the first `inlineTargets` (100) up-to-date activities of a game in the
-- page's own transaction, so the first pushes leave at once; with (game_id) alone PostgreSQL read every
-- active activity of the game (100,000: ~0.2 s in the page) to keep the first 100 by id.
CREATE INDEX activities_game_order ON activities (game_id, id) WHERE active;
DROP INDEX activities_game;
