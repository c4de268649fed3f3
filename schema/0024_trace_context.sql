-- Traces across processes and nodes (issue 29): the W3C `traceparent` of the span that appended an
-- event (the webhook request's append), and of the planning span that wrote a push to the outbox,
-- so the projector and the delivery workers, wherever they run, continue the same trace. NULL when
-- tracing was off, and for every row written before this migration.
ALTER TABLE events ADD COLUMN trace_parent text;
ALTER TABLE activity_pushes ADD COLUMN trace_parent text;
