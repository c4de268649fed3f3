"""scripts/bench-cluster's load: providers posting real games to 1 node, then to N nodes."""
import argparse, http.client, json, os, signal, sys, threading, time

from cluster_tools import database, free_port, games, serve, sql

KEY = "bench-cluster-ingest-key-0001"


def counters(url):
    """The database's commits and the server's WAL flushes so far (PostgreSQL 14+)."""
    row = sql(url, "SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()),"
                   " (SELECT wal_sync FROM pg_stat_wal)")[0]
    return int(row[0]), int(row[1])


def cpu_seconds(pid):
    """User + system CPU seconds of a process so far."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def postgres_cpu_seconds():
    """CPU seconds of every running PostgreSQL process (the server's, whoever started it)."""
    total = 0.0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if open(f"/proc/{pid}/comm").read().strip() in ("postgres", "postmaster"):
                total += cpu_seconds(pid)
        except OSError:
            continue
    return total


def start(binary, url, count, work, tag):
    nodes = []
    for i in range(count):
        env = dict(os.environ, SCOREFEED_DATABASE_URL=url, SCOREFEED_INGEST_KEYS=KEY,
                   SCOREFEED_NODE_ID=f"{tag}-{i}", SCOREFEED_LOG_LEVEL="warning")
        port = free_port()
        nodes.append((serve(binary, env, port, f"{work}/{tag}-{i}.log"), port))
        if i == 0:
            time.sleep(0.5)  # the first node migrates the new database before the others open it
    return nodes


def run(nodes, all_games, providers, url, rate):
    ports = [port for _, port in nodes]
    commits, flushes = counters(url)
    cpu = sum(cpu_seconds(process.pid) for process, _ in nodes)
    postgres = postgres_cpu_seconds()
    latencies, statuses, lock = [], {}, threading.Lock()

    def provider(index):
        mine = all_games[index::providers]
        if not mine:
            return
        connections = [http.client.HTTPConnection("127.0.0.1", port, timeout=30) for port in ports]
        turn = index
        local = []
        # Interleave this provider's games as a feed does: message k of each game in turn.
        # With a rate, each provider sends on a schedule, so together they offer `rate` messages per
        # second; one that falls behind sends at once until it is back on time, and its latency counts
        # from the scheduled moment (no coordinated omission).
        interval = providers / rate if rate else 0
        due = begin + index * interval / providers
        for k in range(max(len(g) for g in mine)):
            for game in mine:
                if k >= len(game):
                    continue
                turn += 1
                scheduled = due
                if interval:
                    time.sleep(max(0.0, due - time.perf_counter()))
                    due += interval
                connection = connections[turn % len(connections)]
                # At a fixed rate the latency counts from when the request was due, not when it left.
                started = scheduled if interval else time.perf_counter()
                connection.request("POST", "/v1/feed", body="[" + game[k] + "]",
                                   headers={"Authorization": "Bearer " + KEY, "Content-Type": "application/json"})
                response = connection.getresponse()
                response.read()
                local.append((time.perf_counter() - started, response.status))
        with lock:
            latencies.extend(l for l, _ in local)
            for _, s in local:
                statuses[s] = statuses.get(s, 0) + 1

    threads = [threading.Thread(target=provider, args=(i,)) for i in range(providers)]
    begin = time.perf_counter()
    for t in threads: t.start()
    for t in threads: t.join()
    elapsed = time.perf_counter() - begin
    latencies.sort()
    accepted = statuses.get(202, 0)
    commits_after, flushes_after = counters(url)
    cpu = sum(cpu_seconds(process.pid) for process, _ in nodes) - cpu
    postgres = postgres_cpu_seconds() - postgres
    return {"accepted": accepted, "statuses": {str(k): v for k, v in sorted(statuses.items())},
            # Where the time goes: commits and WAL flushes per accepted message (group commit folds
            # concurrent requests into one), and the nodes' CPU per 1,000 messages.
            "commitsPerMessage": round((commits_after - commits) / max(1, accepted), 2),
            "walFlushesPerMessage": round((flushes_after - flushes) / max(1, accepted), 2),
            "nodeCpuSecondsPer1000": round(cpu * 1000 / max(1, accepted), 2),
            "postgresCpuSecondsPer1000": round(postgres * 1000 / max(1, accepted), 2),
            "seconds": round(elapsed, 3), "messagesPerSecond": round(accepted / elapsed, 1),
            "p50Ms": round(latencies[len(latencies) // 2] * 1000, 2),
            "p99Ms": round(latencies[int(len(latencies) * 0.99)] * 1000, 2)}


def main():
    parser = argparse.ArgumentParser()
    for name in ["bin", "url", "work"]: parser.add_argument("--" + name, required=True)
    for name in ["nodes", "providers", "games", "rounds"]: parser.add_argument("--" + name, type=int, required=True)
    parser.add_argument("--rate", type=int, default=0)
    a = parser.parse_args()
    all_games = [[json.dumps(m, separators=(",", ":")) for m in game]
                 for game in games(a.games, "bench")]
    results = {"1": [], str(a.nodes): []}
    for round_ in range(a.rounds):
        for count in [1, a.nodes]:
            tag = f"r{round_}n{count}"
            url = database(a.url, "bench_" + tag)
            nodes = start(a.bin, url, count, a.work, tag)
            try:
                results[str(count)].append(run(nodes, all_games, a.providers, url, a.rate))
            finally:
                for process, _ in nodes:
                    process.send_signal(signal.SIGTERM)
                for process, _ in nodes:
                    process.wait(timeout=60)
            print(f"{tag}: {results[str(count)][-1]}", file=sys.stderr)
    best = {k: max(v, key=lambda r: r["messagesPerSecond"]) for k, v in results.items()}
    print(json.dumps({
        "command": f"scripts/bench-cluster --nodes {a.nodes} --providers {a.providers} --games {a.games} --rounds {a.rounds}"
                   + (f" --rate {a.rate}" if a.rate else ""),
        "cores": os.cpu_count(), "messages": sum(len(g) for g in all_games), "runs": results,
        "ratioNodesToOne": round(best[str(a.nodes)]["messagesPerSecond"] / best["1"]["messagesPerSecond"], 2),
    }, indent=1))


main()
