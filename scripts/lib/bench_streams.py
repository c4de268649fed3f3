"""scripts/bench-streams' load (issue 25): slow live-stream readers beside fast ones while changes pour in.

One release `scorefeed serve` on a database of its own. SLOW readers (half on /v1/stream, half on one
game's stream) read 64 bytes a second through a 4 KiB receive buffer and reconnect when the server cuts
them; FAST readers on /v1/stream read as fast as they can. CHANGES real fixture messages are posted to
/v1/feed in SECONDS. The server's RSS is sampled throughout; the slow readers stay HOLD seconds after the
last post, then leave, and the RSS is read again AFTER seconds later. Prints one JSON object.
"""
import argparse, http.client, json, os, resource, socket, threading, time

from cluster_tools import database, free_port, games, rss_mb, serve, sql

KEY = "bench-streams-ingest-key-0001"


def post(port, messages):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("POST", "/v1/feed", json.dumps(messages),
                       {"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    if response.status != 202:
        raise SystemExit(f"POST /v1/feed answered {response.status}: {body[:300]!r}")


def metrics(port):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/metrics")
    text = connection.getresponse().read().decode()
    connection.close()
    out = {}
    for line in text.splitlines():
        if line.startswith("scorefeed_stream_"):
            name, value = line.rsplit(" ", 1)
            out[name] = float(value)
    return out


class SlowReaders:
    """`count` sockets read 64 bytes each per second by one thread; a socket the server ends is reopened."""

    def __init__(self, port, paths):
        self.port, self.paths = port, paths
        self.sockets = {}  # socket -> index
        self.cut = 0
        self.opened = 0
        self.bytes = 0
        self.active = True
        self.thread = threading.Thread(target=self.loop, daemon=True)

    def open(self, index):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect(("127.0.0.1", self.port))
        s.sendall(f"GET {self.paths[index]} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n".encode())
        s.setblocking(False)
        self.sockets[s] = index
        self.opened += 1

    def start(self):
        for index in range(len(self.paths)):
            self.open(index)
        self.thread.start()

    def loop(self):
        while self.active:
            began = time.time()
            for s, index in list(self.sockets.items()):
                try:
                    chunk = s.recv(64)
                    if chunk:
                        self.bytes += len(chunk)
                        continue
                except BlockingIOError:
                    continue
                except OSError:
                    pass
                # Ended by the server: reconnect, as a browser would.
                self.cut += 1
                del self.sockets[s]
                s.close()
                if self.active:
                    try:
                        self.open(index)
                    except OSError:
                        pass
            time.sleep(max(0.0, 1.0 - (time.time() - began)))

    def leave(self):
        self.active = False
        self.thread.join(timeout=10)
        for s in self.sockets:
            s.close()
        self.sockets.clear()


class FastReader(threading.Thread):
    """Reads /v1/stream as fast as it can; the delay of each change from its post to its arrival."""

    def __init__(self, port, sent):
        super().__init__(daemon=True)
        self.port, self.sent = port, sent
        self.delays = []
        self.received = 0
        self.ended_by_server = False
        self.comment = None
        self.active = True

    def run(self):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        connection.request("GET", "/v1/stream", headers={"Accept": "text/event-stream"})
        response = connection.getresponse()
        while self.active:
            try:
                line = response.readline()
            except (OSError, http.client.HTTPException):
                break
            if not line:
                self.ended_by_server = self.active
                break
            if line.startswith(b": ") and not line.startswith(b": keep-alive"):
                self.comment = line.decode().strip()
            if not line.startswith(b"data: "):
                continue
            state = json.loads(line[6:])
            key = (state["gameId"], state["version"])
            at = self.sent.get(key)
            if at is not None:
                self.delays.append(time.time() - at)
                self.received += 1
        connection.close()


def percentile(values, p):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--url", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--slow", type=int, default=500)
    parser.add_argument("--fast", type=int, default=10)
    parser.add_argument("--changes", type=int, default=5000)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--hold", type=float, default=30)
    parser.add_argument("--after", type=float, default=60)
    a = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    url = database(a.url, f"bench_streams_{os.getpid()}")
    port = free_port()
    env = dict(os.environ, SCOREFEED_DATABASE_URL=url, SCOREFEED_INGEST_KEYS=KEY, SCOREFEED_LOG_LEVEL="warning")
    server = serve(a.bin, env, port, f"{a.work}/serve.log")
    try:
        # Real games: enough fixture games for CHANGES messages after their first ones.
        all_games = []
        while sum(len(g) - 1 for g in all_games) < a.changes:
            all_games = games(len(all_games) + 8, "bench")
        post(port, [g[0] for g in all_games])  # every game scheduled: each game's stream exists
        rest = []  # message k of each game in turn, as a feed interleaves them
        for k in range(1, max(len(g) for g in all_games)):
            rest += [g[k] for g in all_games if k < len(g)]
        rest = rest[:a.changes]
        watched = all_games[0][0]["gameId"]
        time.sleep(2)

        samples = []  # (seconds since start, RSS MB)
        sampling = {"on": True}
        begin = time.time()

        def sample():
            while sampling["on"]:
                samples.append((round(time.time() - begin, 1), round(rss_mb(server.pid), 1)))
                time.sleep(0.25)

        start_rss = rss_mb(server.pid)
        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()

        sent = {}  # (gameId, version) -> when its POST began
        fast = [FastReader(port, sent) for _ in range(a.fast)]
        for reader in fast:
            reader.start()
        paths = ["/v1/stream" if i % 2 == 0 else f"/v1/games/{watched}/stream" for i in range(a.slow)]
        slow = SlowReaders(port, paths)
        slow.start()
        time.sleep(3)
        connected = metrics(port).get("scorefeed_stream_clients", 0)

        # CHANGES messages in SECONDS: a batch every 50 ms.
        versions, posted = {}, set()
        for g in all_games:
            versions[g[0]["gameId"]] = 1
        batches = max(1, int(a.seconds / 0.05))
        size = -(-len(rest) // batches)
        post_began = time.time()
        for b in range(batches):
            batch = rest[b * size:(b + 1) * size]
            if not batch:
                break
            due = post_began + b * 0.05
            time.sleep(max(0.0, due - time.time()))
            now = time.time()
            for message in batch:
                if message["id"] in posted:
                    continue  # a provider's retry (plain-nine has one): a duplicate, no change
                posted.add(message["id"])
                versions[message["gameId"]] += 1
                sent[(message["gameId"], versions[message["gameId"]])] = now
            post(port, batch)
        post_seconds = time.time() - post_began

        # Until every fast reader has every change (or HOLD passes), the slow readers reading on.
        deadline = time.time() + a.hold
        while time.time() < deadline and any(r.received < len(sent) for r in fast):
            time.sleep(0.2)
        delivered_seconds = time.time() - post_began
        time.sleep(max(0.0, deadline - time.time()))
        during = metrics(port)
        peak_rss = max(mb for _, mb in samples)

        slow.leave()
        left_at = time.time()
        time.sleep(1)
        after_leave = metrics(port)
        time.sleep(max(0.0, a.after - (time.time() - left_at)))
        after_rss = rss_mb(server.pid)
        sampling["on"] = False
        for reader in fast:
            reader.active = False

        delays = [d for r in fast for d in r.delays]
        print(json.dumps({
            "slowReaders": a.slow, "fastReaders": a.fast, "messages": len(rest), "changes": len(sent),
            "games": len(all_games),
            "postSeconds": round(post_seconds, 2),
            "streamClientsConnected": connected,
            "rssMB": {"start": round(start_rss, 1), "peak": round(peak_rss, 1), "afterLeave": round(after_rss, 1)},
            "growthMB": round(peak_rss - start_rss, 1),
            "afterMinusStartMB": round(after_rss - start_rss, 1),
            "fastDelayMs": {p: round(percentile(delays, q) * 1000, 1) if delays else None
                            for p, q in (("p50", 50), ("p99", 99), ("max", 100))},
            "fastReceived": sorted(r.received for r in fast),
            "fastEndedByServer": sum(r.ended_by_server for r in fast),
            "deliveredToFastSeconds": round(delivered_seconds, 2),
            "slowCutAndReconnected": slow.cut, "slowConnections": slow.opened, "slowBytesRead": slow.bytes,
            "serverDisconnects": {k.split("reason=")[1].strip('"}'): v for k, v in during.items()
                                  if k.startswith("scorefeed_stream_disconnects_total")},
            "streamClientsOneSecondAfterLeave": after_leave.get("scorefeed_stream_clients"),
            "secondsAfterLeave": a.after,
            "rssSeries": samples[::8],
        }, indent=1))
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except Exception:
            server.kill()
        sql(a.url, f"DROP DATABASE IF EXISTS bench_streams_{os.getpid()} WITH (FORCE)")


if __name__ == "__main__":
    main()
