"""scripts/chaos: several serve nodes, faulty APNs, kills and a PostgreSQL restart; then the promises checked.

Everything random is drawn from --seed (the schedule of kills, batches, pauses and APNs faults), so a failing
run can be run again with the same choices. Threads race, so the interleaving is not replayed exactly.
"""
import argparse, http.client, json, os, random, signal, subprocess, sys, threading, time

import chaos_checks
from chaos_pressure import Pressure
from cluster_tools import free_port, games, serve, sql

INGEST_KEY = "chaos-ingest-key-000000001"
APP_KEY = "chaos-app-key-00000000001"


def log(text):
    print(f"chaos: {text}", file=sys.stderr, flush=True)


class Run:
    def __init__(self, a):
        self.a = a
        self.lock = threading.Lock()
        self.answers = {}  # "status" or "503 without Retry-After" -> count
        self.unexpected = []  # answers outside 202/201/200, the documented 4xx, 503 + Retry-After
        self.acknowledged = set()
        self.refused = set()  # ids of the invalid messages sent on purpose
        self.connection_errors = 0
        self.events = []  # what the chaos thread did, in order
        self.nodes = {}  # name -> {"port", "process"}
        self.posting = True
        self.env = dict(os.environ, SCOREFEED_DATABASE_URL=a.url, SCOREFEED_INGEST_KEYS=INGEST_KEY,
                        SCOREFEED_APP_KEYS=APP_KEY, SCOREFEED_LOG_LEVEL="warning")
        self.games = games(a.games, f"chaos-{a.seed}")
        self.messages = sum(len(g) for g in self.games)

    # --- the cast ------------------------------------------------------------------------------------

    def start_sandbox(self):
        folder = f"{self.a.work}/apns"
        self.sandbox = subprocess.Popen(
            [self.a.bin, "apns-sandbox", "--port", "0", "--dir", folder, "--random-faults", str(self.a.fault_rate),
             "--seed", str(self.a.seed)], stdout=open(f"{self.a.work}/apns.log", "w"), stderr=subprocess.STDOUT)
        for _ in range(600):
            if os.path.exists(f"{folder}/env"):
                break
            time.sleep(0.05)
        for line in open(f"{folder}/env").read().splitlines():
            if "=" in line:
                key, value = line.split("=", 1)
                self.env[key] = value
        self.deliveries = f"{folder}/deliveries.jsonl"

    def start_node(self, name):
        port = self.nodes.get(name, {}).get("port") or free_port()
        process = serve(self.a.bin, dict(self.env, SCOREFEED_NODE_ID=name), port, f"{self.a.work}/{name}.log")
        self.nodes[name] = {"port": port, "process": process}

    # --- HTTP ----------------------------------------------------------------------------------------

    def get(self, port, path):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def send(self, rng, method, path, body, key, expected):
        """Sends until an expected answer (through random nodes, honouring Retry-After); returns its
        status, or None when the run's deadline passed first (recorded as unexpected)."""
        while True:
            if time.time() > self.deadline:
                with self.lock:
                    self.unexpected.append({"gaveUp": path, "after": "the run's deadline"})
                return None
            name = rng.choice(sorted(self.nodes))
            port = self.nodes[name]["port"]
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            try:
                connection.request(method, path, body=body,
                                   headers={"Authorization": "Bearer " + key, "Content-Type": "application/json"})
                response = connection.getresponse()
                text = response.read()
                status, retry_after = response.status, response.getheader("Retry-After")
            except (OSError, http.client.HTTPException):
                with self.lock:
                    self.connection_errors += 1
                time.sleep(0.2)
                continue
            finally:
                connection.close()
            label = str(status) if status != 503 or retry_after else "503 without Retry-After"
            with self.lock:
                self.answers[label] = self.answers.get(label, 0) + 1
                if status not in expected and not (status == 503 and retry_after):
                    self.unexpected.append({"status": status, "path": path, "body": text.decode()[:300]})
            if status in expected:
                return status
            time.sleep(min(float(retry_after or 1), 2) if status == 503 else 0.5)

    # --- providers and apps --------------------------------------------------------------------------

    def provider(self, index, games):
        rng = random.Random(f"{self.a.seed}-provider-{index}")
        # About 2.25 messages per request: spread this provider's requests over --seconds.
        pause = self.a.seconds / max(1, sum(len(g) for g in games) / 2.25)
        cursors = {id(g): 0 for g in games}
        registered = set()
        while any(cursors[id(g)] < len(g) for g in games):
            game = rng.choice([g for g in games if cursors[id(g)] < len(g)])
            start = cursors[id(game)]
            size = 1 if rng.random() < 0.5 else rng.randint(2, 6)
            batch = game[start:start + size]
            if rng.random() < 0.04:
                self.send_invalid(rng, batch[0])
            if self.send(rng, "POST", "/v1/feed", json.dumps(batch), INGEST_KEY, {202}) is None:
                return
            with self.lock:
                self.acknowledged.update(m["id"] for m in batch)
            cursors[id(game)] = start + len(batch)
            if id(game) not in registered:
                registered.add(id(game))
                self.register(rng, game[0]["gameId"])
            time.sleep(rng.uniform(0, 2 * pause))

    def send_invalid(self, rng, template):
        """A message the server must refuse with a documented 4xx, storing nothing."""
        bad = dict(template, id=template["id"] + "-invalid", type="run.scored")
        bad.pop("runs", None)
        bad["team"] = rng.choice(["nobody", "", 7])
        with self.lock:
            self.refused.add(bad["id"])
        self.send(rng, "POST", "/v1/feed", json.dumps([bad]), INGEST_KEY, {400, 409})

    def register(self, rng, game_id):
        for _ in range(self.a.activities):
            token = "%064x" % rng.getrandbits(256)
            body = json.dumps({"pushToken": token, "environment": "production", "bundleId": "com.example.scores"})
            if self.send(rng, "POST", f"/v1/games/{game_id}/activities", body, APP_KEY, {200, 201}) is None:
                return
            with self.lock:
                self.tokens[token] = game_id

    # --- chaos -------------------------------------------------------------------------------------

    def leader(self):
        """The leading node as `GET /v1/cluster` names it (waiting up to 10 s for one to lead)."""
        for _ in range(50):
            for name in sorted(self.nodes):
                try:
                    status, body = self.get(self.nodes[name]["port"], "/v1/cluster")
                    leader = json.loads(body).get("leader") if status == 200 else None
                    if leader in self.nodes:
                        return leader
                except (OSError, ValueError):
                    continue
            time.sleep(0.2)
        return None

    def chaos(self):
        rng = random.Random(f"{self.a.seed}-chaos")
        kills = self.a.kills
        restart_at = rng.randint(1, kills)  # PostgreSQL is restarted after this many kills
        gap = self.a.seconds / (kills + 1)  # the kills spread over the posting
        time.sleep(rng.uniform(0.5, 1) * gap)
        for k in range(1, kills + 1):
            if not self.posting:
                break
            leader = self.leader() if k == 1 else None
            victim = leader if leader in self.nodes else rng.choice(sorted(self.nodes))
            self.nodes[victim]["process"].send_signal(signal.SIGKILL)
            self.nodes[victim]["process"].wait()
            self.events.append({"at": round(time.time() - self.started, 1), "killed": victim,
                                "leader": victim == leader or None})
            time.sleep(rng.uniform(1, 3))
            self.start_node(victim)
            self.events.append({"at": round(time.time() - self.started, 1), "restarted": victim})
            if k == restart_at:
                time.sleep(rng.uniform(1, 2))
                self.restart_postgres(rng)
            time.sleep(rng.uniform(0.5, 1) * gap)

    def restart_postgres(self, rng):
        home = dict(os.environ, SCOREFEED_HOME=f"{self.a.work}/home")
        at = round(time.time() - self.started, 1)
        subprocess.run([self.a.bin, "db", "stop"], env=home, check=True, capture_output=True)
        down = rng.uniform(1, 3)
        time.sleep(down)
        subprocess.run([self.a.bin, "db", "start"], env=home, check=True, capture_output=True)
        self.events.append({"at": at, "postgresRestarted": True, "downSeconds": round(down, 1)})

    # --- the run -----------------------------------------------------------------------------------

    def run(self):
        self.tokens = {}
        self.start_sandbox()
        for n in range(self.a.nodes):
            self.start_node(f"node-{n + 1}")
        self.started = time.time()
        self.deadline = self.started + 3 * self.a.seconds + 120  # a server that never answers ends the run
        providers = [threading.Thread(target=self.provider, args=(i, self.games[i::self.a.providers]))
                     for i in range(self.a.providers)]
        chaos = threading.Thread(target=self.chaos)
        # Slow stream readers and half-open connections on every node while the faults happen.
        self.pressure = Pressure(self, self.a.readers, self.a.half_open)
        self.pressure.start()
        for t in providers + [chaos]:
            t.start()
        for t in providers:
            t.join()
        self.posting = False
        chaos.join()
        self.pressure.stop()
        log(f"all {self.messages} messages acknowledged after {time.time() - self.started:.0f} s; waiting for delivery")
        settled = self.settle()
        for node in self.nodes.values():
            node["process"].send_signal(signal.SIGTERM)
        for node in self.nodes.values():
            node["process"].wait(timeout=60)
        self.sandbox.send_signal(signal.SIGTERM)
        self.sandbox.wait(timeout=30)
        self.elapsed = time.time() - self.started
        return settled

    def settle(self):
        """Waits until every game is final in the projection and no push is pending."""
        deadline = time.time() + self.a.settle
        games = len(self.games)
        while time.time() < deadline:
            try:
                left = sql(self.a.url,
                           "SELECT (SELECT count(*) FROM outbox WHERE state = 'pending'), "
                           f"(SELECT count(*) FROM score_states WHERE game_id LIKE 'chaos-{self.a.seed}-%' "
                           "AND state->>'status' IN ('closed', 'postponed', 'cancelled'))")[0]
                if left[0] == "0" and int(left[1]) == games:
                    return True
            except subprocess.CalledProcessError:
                pass
            time.sleep(1)
        return False


def main():
    parser = argparse.ArgumentParser()
    for name in ["bin", "url", "work"]:
        parser.add_argument("--" + name, required=True)
    for name, default in [("seed", 0), ("nodes", 3), ("games", 6), ("providers", 4), ("activities", 3),
                          ("kills", 4), ("seconds", 60), ("settle", 120), ("readers", 20), ("half-open", 200)]:
        parser.add_argument("--" + name, type=int, default=default)
    parser.add_argument("--fault-rate", type=float, default=0.15)
    a = parser.parse_args()
    run = Run(a)
    log(f"seed {a.seed}: {a.nodes} nodes, {a.games} games, {a.providers} providers, {a.kills} kills")
    settled = run.run()
    report = chaos_checks.report(run, settled)
    print(json.dumps(report, indent=1))
    sys.exit(0 if report["ok"] else 1)


main()
