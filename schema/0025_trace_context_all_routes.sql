-- Traces for every route (issue 29): broadcasts to channels and push-to-start carry the
-- `traceparent` of the planning span that wrote them, as `activity_pushes` does since 0024, so their
-- delivery batches continue the trace of the requests whose events caused them. NULL when tracing
-- was off, and for every row written before this migration.
ALTER TABLE broadcast_pushes ADD COLUMN trace_parent text;
ALTER TABLE device_starts ADD COLUMN trace_parent text;
