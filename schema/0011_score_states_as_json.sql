-- Fields once (issue 14): a game's state is stored as its canonical JSON (ScoreState.fields lists the
-- fields in one place), with only the columns queries need beside it. Rows from before are converted.
ALTER TABLE score_states ADD COLUMN state jsonb;

UPDATE score_states SET state = jsonb_build_object(
    'gameId', game_id, 'home', home, 'away', away,
    'startsAt', to_char(starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'homeScore', home_score, 'awayScore', away_score, 'inningNumber', inning, 'half', half, 'outs', outs,
    'bases', jsonb_build_object('first', on_first, 'second', on_second, 'third', on_third),
    'status', status, 'version', version,
    'updatedAt', to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));

ALTER TABLE score_states
    ALTER COLUMN state SET NOT NULL,
    DROP COLUMN home, DROP COLUMN away, DROP COLUMN home_score, DROP COLUMN away_score, DROP COLUMN inning,
    DROP COLUMN half, DROP COLUMN outs, DROP COLUMN on_first, DROP COLUMN on_second, DROP COLUMN on_third,
    DROP COLUMN version, DROP COLUMN updated_at;
