-- The log's one-round-trip append (issue 28): a writer that knows each stream's version sends the
-- append lock, this check and the insert together. The check fails the whole (implicit) transaction
-- when a stream is not where the writer thinks, with SQLSTATE SF409, and the writer falls back to
-- reading the heads. (A stream ahead of the writer is also caught by events_stream_version_key; this
-- also catches one behind, where the insert alone would leave a gap.)
CREATE FUNCTION events_expect_heads(games text[], versions bigint[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    moved text;
BEGIN
    SELECT g INTO moved FROM unnest(games, versions) AS x(g, v)
    WHERE coalesce((SELECT stream_version FROM events WHERE stream_id = x.g
                    ORDER BY stream_version DESC LIMIT 1), 0) <> x.v
    LIMIT 1;
    IF moved IS NOT NULL THEN
        RAISE EXCEPTION 'stream % is not at the version the writer expected', moved USING ERRCODE = 'SF409';
    END IF;
END
$$;
