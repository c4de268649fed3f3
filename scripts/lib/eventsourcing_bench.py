"""The Python `eventsourcing` library's append rate on the same PostgreSQL, for scripts/bench-peers.

Each save records one aggregate (a game) with BATCH events in one transaction: its creation and
BATCH - 1 `RunScored` events, the shape of ScoreFeed's batch appends. Prints one JSON line per batch
size: {"batch": B, "events": N, "eventsPerSecond": R}.
Usage: python eventsourcing_bench.py DATABASE_URL SCHEMA BATCH:EVENTS[,BATCH:EVENTS...]
(DATABASE_URL as ScoreFeed takes it: postgresql://user@host:port/db, or ?host=/socket/dir.)
"""
import json
import os
import sys
import time
from urllib.parse import parse_qs, unquote, urlparse

url, schema, plan = sys.argv[1:4]
parts = urlparse(url)
query = parse_qs(parts.query)
host = query.get("host", [parts.hostname or "/var/run/postgresql"])[0]
port = str(parts.port or query.get("port", ["5432"])[0])
user = unquote(parts.username or query.get("user", ["postgres"])[0])
dbname = (parts.path or "/postgres").lstrip("/") or "postgres"
os.environ.update({
    "PERSISTENCE_MODULE": "eventsourcing.postgres",
    "POSTGRES_HOST": host, "POSTGRES_PORT": port, "POSTGRES_USER": user, "POSTGRES_PASSWORD": "",
    "POSTGRES_DBNAME": dbname, "POSTGRES_SCHEMA": schema, "CREATE_TABLE": "y",
})

from eventsourcing.application import Application  # noqa: E402
from eventsourcing.domain import Aggregate, event  # noqa: E402


class Game(Aggregate):
    @event("Scheduled")
    def __init__(self, home: str, away: str):
        self.home, self.away, self.runs = home, away, 0

    @event("RunScored")
    def run_scored(self, team: str, runs: int):
        self.runs += runs


class Games(Application):
    pass


app = Games()
for pair in plan.split(","):
    batch, events = (int(x) for x in pair.split(":"))
    saves = events // batch
    games = []
    for _ in range(saves):
        game = Game(home="HOM", away="AWY")
        for n in range(batch - 1):
            game.run_scored(team="home" if n % 2 == 0 else "away", runs=1)
        games.append(game)
    began = time.perf_counter()
    for game in games:
        app.save(game)
    seconds = time.perf_counter() - began
    print(json.dumps({"batch": batch, "events": saves * batch, "eventsPerSecond": round(saves * batch / seconds)}))
    sys.stdout.flush()
