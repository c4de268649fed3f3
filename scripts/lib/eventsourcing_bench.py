"""The Python `eventsourcing` library's own recorder on the same PostgreSQL, for scripts/bench-peers.

Times `PostgresApplicationRecorder.insert_events` alone (no Application, no aggregates): the
`StoredEvent` objects are built beforehand, spread over 100 streams as `scorefeed-bench append`
spreads its events (event n to stream n % 100, versions 1, 2, 3, ... per stream), with a JSON
payload shaped like ScoreFeed's stored `run.scored` message. One insert_events call per batch,
each its own transaction (the recorder's: lock the table, notify, insert, commit).
Prints one JSON line per batch size: {"batch": B, "events": N, "eventsPerSecond": R}.
Usage: python eventsourcing_bench.py DATABASE_URL SCHEMA BATCH:EVENTS[,BATCH:EVENTS...]
(DATABASE_URL as ScoreFeed takes it: postgresql://user@host:port/db, or ?host=/socket/dir.)
"""
import json
import sys
import time
import uuid
from datetime import datetime, timedelta, timezone
from urllib.parse import parse_qs, unquote, urlparse

from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore

STREAMS = 100

url, schema, plan = sys.argv[1:4]
parts = urlparse(url)
query = parse_qs(parts.query)
datastore = PostgresDatastore(
    dbname=(parts.path or "/postgres").lstrip("/") or "postgres",
    host=query.get("host", [parts.hostname or "/var/run/postgresql"])[0],
    port=str(parts.port or query.get("port", ["5432"])[0]),
    user=unquote(parts.username or query.get("user", ["postgres"])[0]),
    password=unquote(parts.password or ""),
    schema=schema,
)
recorder = PostgresApplicationRecorder(datastore)
recorder.create_table()

start = datetime(2026, 3, 31, 23, 33, 20, tzinfo=timezone.utc)
for pair in plan.split(","):
    batch, events = (int(x) for x in pair.split(":"))
    streams = [uuid.uuid4() for _ in range(STREAMS)]
    versions = [0] * STREAMS
    stored = []
    for n in range(events // batch * batch):
        versions[n % STREAMS] += 1
        state = json.dumps({
            "at": (start + timedelta(seconds=n)).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "gameId": f"bench-{batch}-g{n % STREAMS}", "id": f"bench-{batch}-{n}",
            "runs": 1, "team": "home" if n % 2 == 0 else "away", "type": "run.scored",
        }, separators=(",", ":"), sort_keys=True).encode()
        stored.append(StoredEvent(
            originator_id=streams[n % STREAMS], originator_version=versions[n % STREAMS],
            topic="scorefeed.bench:RunScored", state=state))
    batches = [stored[i:i + batch] for i in range(0, len(stored), batch)]
    began = time.perf_counter()
    for events_of_batch in batches:
        recorder.insert_events(events_of_batch)
    seconds = time.perf_counter() - began
    print(json.dumps({"batch": batch, "events": len(stored), "eventsPerSecond": round(len(stored) / seconds)}))
    sys.stdout.flush()
datastore.close()
