"""scripts/bench-connections: half-open connections against `scorefeed serve`, a well-behaved client beside.

Run as `bench_connections.py hold PORT COUNT` it is one of the client processes: it raises its own
open-file limit to the hard one, opens COUNT connections that each send the start of a request and never
finish its headers, prints how many it opened, and holds them until its standard input closes; then it
prints how many the server had closed.
The well-behaved client is timed while the connections are opened, while they are held, and for 10 s
after the client processes close them all at once.
"""
import argparse, http.client, json, os, resource, socket, subprocess, sys, threading, time

from cluster_tools import database, free_port, games, serve, sql

KEY = "bench-connections-ingest-key-0001"
PARTIAL = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Waiting: "


def hold(port, count):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    sockets, failed = [], 0
    for _ in range(count):
        s = socket.socket()
        try:
            s.settimeout(10)
            s.connect(("127.0.0.1", port))
            s.sendall(PARTIAL)
            sockets.append(s)
        except OSError:
            failed += 1
            s.close()
    print(json.dumps({"opened": len(sockets), "failed": failed}), flush=True)
    sys.stdin.read()  # until the parent closes it
    closed = 0
    for s in sockets:
        s.setblocking(False)
        try:
            closed += s.recv(1, socket.MSG_PEEK) == b""
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
    print(json.dumps({"closedByServer": closed}), flush=True)


def summary(latencies, failures):
    ordered = sorted(latencies)
    pick = lambda q: round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1) if ordered else None
    return {"requests": len(ordered) + failures, "failures": failures, "p50Ms": pick(0.5), "p99Ms": pick(0.99),
            "maxMs": round(max(ordered) * 1000, 1) if ordered else None,
            "overOneSecond": sum(1 for x in ordered if x >= 1.0)}


class Client:
    """A well-behaved client: each request on a new connection (the hardest case at the cap), timed."""

    def __init__(self, port, messages):
        self.port, self.messages = port, messages
        self.healthz, self.feed = ([], 0), ([], 0)

    def once(self, method, path, body=None):
        started = time.monotonic()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
            headers = {"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"} if body else {}
            connection.request(method, path, body=body, headers=headers)
            status = connection.getresponse().status
            connection.close()
            return time.monotonic() - started, status
        except OSError:
            return None, 0

    def run(self, until):
        healthz, feed, healthz_failed, feed_failed = [], [], 0, 0
        while not until() and self.messages:
            took, status = self.once("GET", "/healthz")
            if status == 200:
                healthz.append(took)
            else:
                healthz_failed += 1
            took, status = self.once("POST", "/v1/feed", json.dumps([self.messages.pop(0)]))
            if status == 202:
                feed.append(took)
            else:
                feed_failed += 1
            time.sleep(0.05)
        return {"healthz": summary(healthz, healthz_failed), "feed": summary(feed, feed_failed)}


def metric(port, name):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", "/metrics")
    for line in connection.getresponse().read().decode().splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            yield line


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--url", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--connections", type=int, default=15000)
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--hold-seconds", type=float, default=20)
    parser.add_argument("--header-timeout", type=float, default=120)
    args = parser.parse_args()

    name = f"bench_connections_{os.getpid()}"
    url = database(args.url, name)
    env = dict(os.environ, SCOREFEED_DATABASE_URL=url, SCOREFEED_INGEST_KEYS=KEY,
               SCOREFEED_HEADER_TIMEOUT_SECONDS=str(args.header_timeout))
    port = free_port()
    server = serve(args.bin, env, port, f"{args.work}/serve.log")
    messages = [m for game in games(80, "bc") for m in game]
    client = Client(port, messages)
    try:
        share = [args.connections // args.processes + (i < args.connections % args.processes)
                 for i in range(args.processes)]
        started = time.monotonic()
        holders = [subprocess.Popen([sys.executable, __file__, "hold", str(port), str(n)], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, text=True) for n in share]
        # Measured while the connections are being opened, then while they are held.
        opening, opened = {}, threading.Event()
        measuring = threading.Thread(target=lambda: opening.update(client.run(opened.is_set)))
        measuring.start()
        reports = [json.loads(h.stdout.readline()) for h in holders]
        opened_after = time.monotonic() - started
        opened.set()
        measuring.join()
        gauge = list(metric(port, "scorefeed_http_connections"))
        fds = len(os.listdir(f"/proc/{server.pid}/fd"))
        rss = int(open(f"/proc/{server.pid}/statm").read().split()[1]) * os.sysconf("SC_PAGE_SIZE") >> 20
        deadline = time.monotonic() + args.hold_seconds
        held = client.run(lambda: time.monotonic() >= deadline)
        closed = 0
        for h in holders:
            h.stdin.close()
        # The clients close their connections all at once: the server has them all to close too.
        deadline = time.monotonic() + 10
        released = client.run(lambda: time.monotonic() >= deadline)
        for h in holders:
            closed += json.loads(h.stdout.readline())["closedByServer"]
            h.wait()
        evicted = list(metric(port, "scorefeed_http_connections_closed_total"))
        print(json.dumps({
            "halfOpen": {"requested": args.connections, "processes": args.processes,
                         "opened": sum(r["opened"] for r in reports), "failed": sum(r["failed"] for r in reports),
                         "openSeconds": round(opened_after, 1), "closedByServerWhileHeld": closed},
            "server": {"headerTimeoutSeconds": args.header_timeout, "openConnectionsMetric": gauge,
                       "openFiles": fds, "rssMB": rss, "closedMetric": evicted},
            "whileOpening": opening, "whileHeld": dict(held, seconds=args.hold_seconds),
            "afterRelease": dict(released, seconds=10),
        }, indent=1))
    finally:
        server.terminate()
        server.wait()
        sql(args.url, f"DROP DATABASE IF EXISTS {name}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "hold":
        hold(int(sys.argv[2]), int(sys.argv[3]))
    else:
        main()
