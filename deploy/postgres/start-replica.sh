#!/bin/bash
# The replica's entrypoint: on its first start, copy the primary with pg_basebackup (which writes
# standby.signal and primary_conninfo, -R, and creates the replication slot, -C -S), then run as a hot
# standby streaming from the primary.
set -euo pipefail
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    until pg_isready --host primary --port 5432 --quiet; do sleep 1; done
    PGPASSWORD="$REPLICATION_PASSWORD" pg_basebackup --host primary --port 5432 --username replicator \
        --pgdata "$PGDATA" --wal-method stream --write-recovery-conf --create-slot --slot replica1 --progress
    chmod 0700 "$PGDATA"
fi
exec postgres -c hot_standby=on -c hot_standby_feedback=on
