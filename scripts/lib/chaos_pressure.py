"""scripts/chaos's hostile clients: slow live-stream readers and half-open connections on every node while
the faults happen, and a watch on every running node: /healthz must keep answering and memory stay bounded.

Generous limits: a liveness check, not a speed target (docs/performance.md has the measured numbers).
"""
import random, socket, threading, time

from cluster_tools import rss_mb

HEALTH_TIMEOUT = 2.0  # seconds a running node may take to answer /healthz
RSS_LIMIT_MB = 1024  # the most a node may hold, debug build, with its slow readers and half-open connections
SETTLING = 3.0  # seconds after a node's (re)start before it is watched


class Pressure:
    def __init__(self, run, readers, half_open):
        self.run, self.readers, self.half_open = run, readers, half_open
        self.rng = random.Random(f"{run.a.seed}-pressure")
        self.lock = threading.Lock()
        self.active = True
        self.started_at = {}  # node name -> process start time seen by the watch
        self.health = {"checks": 0, "failures": [], "slowest": 0.0}
        self.rss_mb = {}  # node name -> peak RSS seen, MB
        self.stream_bytes = 0
        self.stream_connections = 0
        self.half_open_opened = 0
        self.threads = []

    def start(self):
        for i in range(self.readers):
            path = "/v1/stream" if i % 2 == 0 else None  # None: one game's stream
            self.threads.append(threading.Thread(target=self.slow_reader, args=(i, path), daemon=True))
        self.threads.append(threading.Thread(target=self.half_open_connections, daemon=True))
        self.threads.append(threading.Thread(target=self.watch, daemon=True))
        for t in self.threads:
            t.start()

    def stop(self):
        self.active = False
        for t in self.threads:
            t.join(timeout=10)

    def node_ports(self):
        return [(name, node["port"], node["process"]) for name, node in sorted(self.run.nodes.items())]

    def slow_reader(self, index, path):
        """Reads a live stream a few bytes a second through a tiny receive buffer; reconnects when cut."""
        rng = random.Random(f"{self.run.a.seed}-reader-{index}")
        while self.active:
            name, port, _ = rng.choice(self.node_ports())
            game = self.run.games[index % len(self.run.games)][0]["gameId"]
            target = path or f"/v1/games/{game}/stream"
            try:
                s = socket.socket()
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                s.settimeout(5)
                s.connect(("127.0.0.1", port))
                s.sendall(f"GET {target} HTTP/1.1\r\nHost: chaos\r\nAccept: text/event-stream\r\n\r\n".encode())
                with self.lock:
                    self.stream_connections += 1
                while self.active:
                    chunk = s.recv(64)
                    if not chunk:
                        break
                    with self.lock:
                        self.stream_bytes += len(chunk)
                    time.sleep(rng.uniform(0.5, 1.5))
            except OSError:
                time.sleep(0.5)
            finally:
                s.close()

    def half_open_connections(self):
        """Keeps `half_open` connections spread over the nodes that send part of their headers and stop."""
        sockets = []
        while self.active:
            sockets = [s for s in sockets if not self.closed_by_peer(s)]
            while self.active and len(sockets) < self.half_open:
                _, port, _ = self.rng.choice(self.node_ports())
                try:
                    s = socket.create_connection(("127.0.0.1", port), timeout=2)
                    s.setblocking(False)
                    s.send(b"POST /v1/feed HTTP/1.1\r\nHost: chaos\r\nContent-Type: appl")
                    sockets.append(s)
                    with self.lock:
                        self.half_open_opened += 1
                except OSError:
                    break
            time.sleep(0.5)
        for s in sockets:
            s.close()

    @staticmethod
    def closed_by_peer(s):
        try:
            if s.recv(1024) == b"":
                s.close()
                return True
        except BlockingIOError:
            return False
        except OSError:
            s.close()
            return True
        return False

    def watch(self):
        """Every second: /healthz of every node running for a few seconds, and every node's RSS."""
        while self.active:
            for name, port, process in self.node_ports():
                if process.poll() is not None:
                    continue
                first = self.started_at.setdefault((name, process.pid), time.time())
                self.sample_rss(name, process.pid)
                if time.time() - first < SETTLING:
                    continue
                began = time.time()
                ok = self.healthz(port)
                took = time.time() - began
                if not ok:
                    # A node the run is killing this very moment refuses before it is reaped: look again.
                    time.sleep(0.5)
                with self.lock:
                    self.health["checks"] += 1
                    self.health["slowest"] = max(self.health["slowest"], round(took, 3))
                    if not ok and process.poll() is None:
                        self.health["failures"].append(
                            {"node": name, "at": round(began - self.run.started, 1), "seconds": round(took, 2)})
            time.sleep(1)

    def healthz(self, port):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=HEALTH_TIMEOUT) as s:
                s.settimeout(HEALTH_TIMEOUT)
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: chaos\r\nConnection: close\r\n\r\n")
                return s.recv(64).startswith(b"HTTP/1.1 200")
        except OSError:
            return False

    def sample_rss(self, name, pid):
        self.rss_mb[name] = max(self.rss_mb.get(name, 0), round(rss_mb(pid)))

    def report(self):
        peak = max(self.rss_mb.values() or [0])
        ok = (not self.health["failures"] and self.health["checks"] > 0 and peak < RSS_LIMIT_MB
              and self.stream_connections > 0 and self.half_open_opened > 0)
        return {"ok": ok, "slowStreamReaders": self.readers, "streamConnections": self.stream_connections,
                "streamBytesRead": self.stream_bytes, "halfOpenKept": self.half_open,
                "halfOpenOpened": self.half_open_opened, "healthz": dict(self.health, failures=self.health["failures"][:20]),
                "peakRssMB": self.rss_mb, "rssLimitMB": RSS_LIMIT_MB}
