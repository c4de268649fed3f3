"""scripts/chaos's verdict: the promises checked against the database and what the APNs server received."""
import json, os, subprocess

import cluster_tools


def sql(run, query):
    return cluster_tools.sql(run.a.url, query)


def acknowledged_once(run):
    stored = {mid: int(n) for mid, n in sql(run, "SELECT message_id, count(*) FROM events GROUP BY 1")}
    missing = sorted(run.acknowledged - stored.keys())
    repeated = sorted(m for m, n in stored.items() if n != 1)
    refused_stored = sorted(run.refused & stored.keys())
    return {"ok": not missing and not repeated and not refused_stored, "acknowledged": len(run.acknowledged),
            "inLog": len(stored), "missing": missing[:20], "repeated": repeated[:20],
            "refusedOnPurpose": len(run.refused), "refusedButStored": refused_stored[:20]}


STATES = "SELECT game_id, state::text FROM score_states ORDER BY game_id"


def projections_equal_rebuild(run, before, after, rebuilt):
    differing = sorted({g for g, _ in set(map(tuple, before)) ^ set(map(tuple, after))})
    return {"ok": rebuilt.returncode == 0 and before == after, "games": len(before), "differing": differing,
            "rebuild": rebuilt.stdout.strip().splitlines()[-1:] or rebuilt.stderr.strip().splitlines()[-1:]}


def received(run):
    """What the APNs server answered 200 to, per device token, in the order it answered; and how it
    answered all requests (delivered, faulted, dropped, ...)."""
    by_token, outcomes = {}, {}
    run.attempts = {}  # token -> every apns-id the server saw for it, in order, whatever it answered
    for line in open(run.deliveries):
        record = json.loads(line)
        outcomes[record.get("outcome")] = outcomes.get(record.get("outcome"), 0) + 1
        if record.get("token") and record.get("apnsId"):
            run.attempts.setdefault(record["token"], []).append(
                (record["apnsId"].lower(), record.get("outcome") == "delivered"))
        if record.get("outcome") == "delivered" and record.get("token"):
            aps = json.loads(record["payload"]).get("aps", {})
            by_token.setdefault(record["token"], []).append((record["apnsId"].lower(), aps))
    return by_token, dict(sorted(outcomes.items()))


def activities_ended(run, by_token, states):
    finals = {g: json.loads(s) for g, s in states}
    problems, repeats, resent = [], 0, 0
    for token, game in sorted(run.tokens.items()):
        pushes = by_token.get(token, [])
        repeats += len(pushes) - len({apns_id for apns_id, _ in pushes})
        ends = [(i, apns_id, aps) for i, (apns_id, aps) in enumerate(pushes) if aps.get("event") == "end"]
        end_ids = {apns_id for _, apns_id, _ in ends}
        if len(end_ids) != 1:
            problems.append({"token": token[:12], "game": game, "ends": len(end_ids)})
            continue
        first, end_id, aps = ends[0]
        # A round sent again after its node was killed before it recorded it (at least once: the lease
        # ran out) repeats pushes the server already saw before the end, with their apns-ids: counted
        # apart, as `resentRounds`. A push first seen after the end is a problem.
        attempts = run.attempts.get(token, [])
        end_at = next(i for i, (apns_id, delivered) in enumerate(attempts) if apns_id == end_id and delivered)
        seen_before = {apns_id for apns_id, _ in attempts[:end_at]}
        later = [apns_id for apns_id, _ in pushes[first:] if apns_id != end_id]
        after = [apns_id for apns_id in later if apns_id not in seen_before]
        resent += len(later) - len(after)
        if after:
            problems.append({"token": token[:12], "game": game, "pushesAfterEnd": len(after)})
        shown = aps.get("content-state", {}).get("status", {})
        final = finals.get(game, {})
        if (shown.get("homeScore"), shown.get("awayScore"), shown.get("status")) != (
                final.get("homeScore"), final.get("awayScore"), final.get("status")):
            problems.append({"token": token[:12], "game": game, "endShows": shown,
                             "final": {k: final.get(k) for k in ["homeScore", "awayScore", "status"]}})
    return {"ok": not problems and len(run.tokens) > 0, "activities": len(run.tokens), "problems": problems[:20],
            "repeatedDeliveries": repeats, "resentRounds": resent}


def no_push_lost(run, by_token):
    delivered = {apns_id for pushes in by_token.values() for apns_id, _ in pushes}
    rows = sql(run, "SELECT state, apns_id, coalesce(last_reason, '') FROM outbox")
    states = {}
    for state, _, _ in rows:
        states[state] = states.get(state, 0) + 1
    pending = states.get("pending", 0)
    unexplained = sum(1 for state, _, reason in rows if state == "failed" and not reason)
    sent_not_received = [apns_id for state, apns_id, _ in rows if state == "sent" and apns_id not in delivered]
    return {"ok": pending == 0 and unexplained == 0 and not sent_not_received and len(rows) > 0,
            "planned": len(rows), "states": states, "failedWithoutReason": unexplained,
            "sentButNotReceived": sent_not_received[:20]}


def client_answers(run):
    return {"ok": not run.unexpected, "answers": dict(sorted(run.answers.items())),
            "connectionErrors": run.connection_errors, "unexpected": run.unexpected[:20]}


def report(run, settled):
    by_token, outcomes = received(run)
    before = sql(run, STATES)
    rebuilt = subprocess.run([run.a.bin, "rebuild"], env=dict(os.environ, SCOREFEED_DATABASE_URL=run.a.url),
                             capture_output=True, text=True)
    after = sql(run, STATES)
    checks = {
        "settled": {"ok": settled, "note": "every game final and no push pending before the nodes stopped"},
        "chaosHappened": {"ok": any(e.get("leader") for e in run.events)
                          and any(e.get("postgresRestarted") for e in run.events), "events": run.events},
        "acknowledgedExactlyOnce": acknowledged_once(run),
        "projectionsEqualRebuild": projections_equal_rebuild(run, before, after, rebuilt),
        "activitiesEndedOnce": activities_ended(run, by_token, after),
        "noPushLost": no_push_lost(run, by_token),
        "clientAnswers": client_answers(run),
        "hostileClients": run.pressure.report(),
    }
    return {"seed": run.a.seed, "replay": f"scripts/chaos --seed {run.a.seed}", "nodes": run.a.nodes,
            "games": run.a.games, "messages": run.messages, "faultRate": run.a.fault_rate,
            "apnsAnswers": outcomes, "seconds": round(run.elapsed),
            "ok": all(c["ok"] for c in checks.values()), "checks": checks}
