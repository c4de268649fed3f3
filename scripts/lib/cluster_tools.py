"""What scripts/bench-cluster and scripts/chaos share: real games, serve nodes, psql."""
import http.client, json, socket, subprocess, time, urllib.parse

SOURCES = ["plain-nine", "extra-innings-walkoff", "delayed-postponed"]


def games(count, prefix):
    """`count` fixture games, each with game and message ids of its own (`PREFIX-NNNN-…`): lists of messages."""
    out = []
    for n in range(count):
        game = []
        for line in open(f"fixtures/{SOURCES[n % len(SOURCES)]}.jsonl").read().splitlines():
            message = json.loads(line)
            message["gameId"] = f"{prefix}-{n:04d}-{message['gameId']}"
            message["id"] = f"{prefix}-{n:04d}-{message['id']}"
            game.append(message)
        out.append(game)
    return out


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(binary, env, port, log_path):
    """Starts `scorefeed serve` on 127.0.0.1:`port` and waits until it answers /healthz; the process."""
    process = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", str(port)], env=env,
                               stdout=open(log_path, "a"), stderr=subprocess.STDOUT)
    for _ in range(600):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return process
        except OSError:
            pass
        if process.poll() is not None:
            break
        time.sleep(0.05)
    raise SystemExit(f"serve on port {port} did not start; see {log_path}")


def sql(url, query):
    """The rows of `query` (psql, unaligned): lists of column texts."""
    out = subprocess.run(["psql", url, "-XAtqc", query], check=True, capture_output=True, text=True)
    return [line.split("|") for line in out.stdout.splitlines()]


def database(url, name):
    """The URL of a new database `name` on the server of `url`."""
    sql(url, f"DROP DATABASE IF EXISTS {name}")
    sql(url, f"CREATE DATABASE {name}")
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


def rss_mb(pid):
    """The resident memory of process `pid` (`VmRSS`), in MB; 0 once it is gone."""
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0
