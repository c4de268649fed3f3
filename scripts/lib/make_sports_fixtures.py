#!/usr/bin/env python3
"""Write the clock-sport fixture games of fixtures/sports/ (docs/sports.md).

Every game here is written (synthetic): real team codes and names, invented players, invented
plays. The script is deterministic (each game has its own seeded random.Random) and writes:

  fixtures/sports/<name>.jsonl   one canonical feed message per line
  fixtures/sports/expected.json  the official figures of each game, computed from the emitted
                                 events by an independent replay (retractions applied)

The replay (`replay`) also checks the rules of docs/sports.md that the fold enforces (period order,
scoring only while a period runs, overtime only when tied, shoot-out only when tied and allowed,
clock values consistent with `at` while the clock runs, retractions, the end) and fails loudly.

Usage: python3 scripts/lib/make_sports_fixtures.py [output-dir]
"""

import datetime as dt
import json
import os
import random
import re
import sys

UNLIMITED = "unlimited"

PRESETS = {
    "league-soccer": dict(sport="soccer", periods=2, periodMinutes=45, overtimes=0, overtimeMinutes=0, shootout=False, tieStands=True),
    "knockout-soccer": dict(sport="soccer", periods=2, periodMinutes=45, overtimes=2, overtimeMinutes=15, shootout=True, tieStands=False),
    "nba": dict(sport="basketball", periods=4, periodMinutes=12, overtimes=UNLIMITED, overtimeMinutes=5, shootout=False, tieStands=False),
    "wnba": dict(sport="basketball", periods=4, periodMinutes=10, overtimes=UNLIMITED, overtimeMinutes=5, shootout=False, tieStands=False),
    "ncaa-men": dict(sport="basketball", periods=2, periodMinutes=20, overtimes=UNLIMITED, overtimeMinutes=5, shootout=False, tieStands=False),
    "nhl": dict(sport="hockey", periods=3, periodMinutes=20, overtimes=1, overtimeMinutes=5, shootout=True, tieStands=False),
    "nhl-playoffs": dict(sport="hockey", periods=3, periodMinutes=20, overtimes=UNLIMITED, overtimeMinutes=20, shootout=False, tieStands=False),
    "nfl": dict(sport="football", periods=4, periodMinutes=15, overtimes=1, overtimeMinutes=10, shootout=False, tieStands=True),
    "ncaa-football": dict(sport="football", periods=4, periodMinutes=15, overtimes=UNLIMITED, overtimeMinutes=0, shootout=False, tieStands=False),
}

KIND_POINTS = {
    "soccer": {"goal": 1, "penalty": 1, "ownGoal": 1},
    "basketball": {"freeThrow": 1, "two": 2, "three": 3},
    "hockey": {"goal": 1},
    "football": {"touchdown": 6, "extraPoint": 1, "twoPointConversion": 2, "fieldGoal": 3, "safety": 2, "defensiveConversion": 2},
}

CLOCK_RE = re.compile(r"^(\d{1,3}):([0-5]\d)(?:\.(\d))?$")


# ---------------------------------------------------------------- time and clock values

def parse_at(s):
    return int(dt.datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp() * 1000)


def fmt_at(ms):
    d = dt.datetime.fromtimestamp(ms // 1000, dt.timezone.utc)
    base = d.strftime("%Y-%m-%dT%H:%M:%S")
    return base + ("Z" if ms % 1000 == 0 else ".%03dZ" % (ms % 1000))


def fmt_clock(ms):
    assert ms >= 0 and ms % 100 == 0, ms
    secs, tenth = divmod(ms, 1000)
    m, s = divmod(secs, 60)
    return "%d:%02d" % (m, s) if tenth == 0 else "%d:%02d.%d" % (m, s, tenth // 100)


def parse_clock(s):
    m = CLOCK_RE.match(s)
    assert m, "bad clock value %r" % s
    return (int(m.group(1)) * 60 + int(m.group(2))) * 1000 + int(m.group(3) or 0) * 100


def other(side):
    return "away" if side == "home" else "home"


# ---------------------------------------------------------------- the writer

class Game:
    """Emits the messages of one game and keeps its clock the way a provider would see it."""

    def __init__(self, name, competition, game_id, home, away, starts_at, seed, scheduled_days_before=2,
                 with_confirmation=True, regulation_kinds=True):
        self.name = name
        self.rules = dict(PRESETS[competition])
        self.sport = self.rules.pop("sport")
        self.competition = competition
        self.game_id = game_id
        self.home, self.away = home, away
        self.rng = random.Random(seed)
        self.lines = []
        self.starts = parse_at(starts_at)
        self.t = self.starts - scheduled_days_before * 86400000 - 3 * 3600000
        self.counts_down = self.sport != "soccer"
        self.clock = 0
        self.running = False
        self.timed = True
        self.period = 0
        self.with_confirmation = with_confirmation
        self.regulation_kinds = regulation_kinds
        self.players = {"home": home["players"], "away": away["players"]}
        self.emit("game.scheduled", sport=self.sport, competition=competition,
                  home=team_obj(home), away=team_obj(away), startsAt=starts_at)

    # -- plumbing
    def emit(self, type_, **fields):
        mid = "%s-%04d" % (self.name, len(self.lines) + 1)
        msg = {"id": mid, "gameId": self.game_id, "at": fmt_at(self.t), "type": type_}
        msg.update(fields)
        self.lines.append(msg)
        return mid

    def wait(self, ms):
        """Real time passes; a running clock moves with it."""
        ms = int(ms)
        assert ms >= 0
        if self.running:
            if self.counts_down:
                assert ms <= self.clock, (self.name, ms, self.clock)
                self.clock -= ms
            else:
                self.clock += ms
        self.t += ms

    def secs(self, lo, hi):
        return self.rng.randint(lo, hi) * 1000

    def player(self, side):
        return self.rng.choice(self.players[side])

    def clock_value(self):
        return fmt_clock(self.clock)

    # -- periods and clock
    def start_game(self, at_ms):
        self.t = max(self.t, at_ms)
        self.emit("game.started")
        self.period = 1
        self.clock = self.period_start_clock(1)
        self.running = False
        if self.with_confirmation:
            self.wait(self.secs(1, 4))
            self.emit("period.started", **self.period_fields(1))

    def period_fields(self, n):
        f = {"period": n}
        kind = self.kind_of(n)
        if kind != "regulation" or self.regulation_kinds:
            f["kind"] = kind
        return f

    def kind_of(self, n):
        r = self.rules
        if n <= r["periods"]:
            return "regulation"
        if r["overtimes"] == UNLIMITED or n <= r["periods"] + r["overtimes"]:
            return "extraTime" if self.sport == "soccer" else "overtime"
        return "shootout"

    def period_start_clock(self, n):
        r = self.rules
        kind = self.kind_of(n)
        if self.sport == "soccer":
            if kind == "regulation":
                return (n - 1) * r["periodMinutes"] * 60000
            if kind == "extraTime":
                return (r["periods"] * r["periodMinutes"] + (n - r["periods"] - 1) * r["overtimeMinutes"]) * 60000
            return 0
        if kind == "regulation":
            return r["periodMinutes"] * 60000
        if kind == "overtime":
            return r["overtimeMinutes"] * 60000
        return 0

    def start_period(self, n):
        assert n == self.period + 1
        self.emit("period.started", **self.period_fields(n))
        self.period = n
        self.clock = self.period_start_clock(n)
        self.running = False
        kind = self.kind_of(n)
        self.timed = kind != "shootout" and not (kind == "overtime" and self.rules["overtimeMinutes"] == 0)

    def end_period(self):
        self.emit("period.ended", period=self.period)
        if self.counts_down:
            self.clock = 0
        self.running = False

    def start_clock(self):
        assert self.timed and not self.running
        self.emit("clock.started", clock=self.clock_value())
        self.running = True

    def stop_clock(self):
        assert self.timed and self.running
        self.emit("clock.stopped", clock=self.clock_value())
        self.running = False

    def set_clock(self, ms):
        self.clock = ms
        self.emit("clock.set", clock=self.clock_value())

    def score(self, side, kind, player=True, clock=True, points=False):
        f = {"team": side, "kind": kind}
        team = self.home if side == "home" else self.away
        if kind in ("fieldGoal", "extraPoint") and "kicker" in team:
            player = team["kicker"]
        elif kind == "safety":
            player = False
        elif player is True and "kicker" in team:
            player = self.rng.choice([p for p in team["players"] if p != team["kicker"]])
        if points:
            f["points"] = KIND_POINTS[self.sport][kind]
        if player:
            f["player"] = self.player(side) if player is True else player
        if clock and self.timed:
            f["clock"] = self.clock_value()
        return self.emit("points.scored", **f)

    def end_game(self):
        self.emit("game.ended", status="closed")


def team_obj(t):
    return {"code": t["code"], "name": t["name"], "logo": ""}


def roster(*names):
    return list(names)


# ---------------------------------------------------------------- shoot-outs

def shootout(g, first, rounds, p_score, gap=(45, 80)):
    """Alternating attempts, stopping as soon as one side cannot be caught; sudden death after."""
    taken = {"home": 0, "away": 0}
    made = {"home": 0, "away": 0}
    order = [first, other(first)]
    rnd = 0
    while True:
        rnd += 1
        for side in order:
            g.wait(g.secs(*gap))
            scored = g.rng.random() < p_score
            g.emit("shootout.attempt", team=side, scored=scored, player=g.player(side))
            taken[side] += 1
            made[side] += scored
            if rnd <= rounds:
                left = {s: rounds - taken[s] for s in taken}
                if made["home"] + left["home"] < made["away"] or made["away"] + left["away"] < made["home"]:
                    return made
        if rnd >= rounds and made["home"] != made["away"]:
            return made


# ---------------------------------------------------------------- basketball

def basketball(g, pace_s, p, stop_after_made_from_ms):
    """A possession simulation. p: outcome probabilities. Runs until the game is decided."""
    r = g.rules
    g.start_game(g.starts + g.secs(20, 90))
    n = 1
    side = g.rng.choice(["home", "away"])
    while True:
        if n > 1:
            g.start_period(n)
        g.wait(g.secs(5, 25))
        g.start_clock()  # tip-off or inbound
        last = n >= r["periods"]
        while g.clock > 0:
            dur = max(2, int(g.rng.gauss(pace_s, pace_s * 0.35)))
            dur_ms = dur * 1000 if g.clock - dur * 1000 >= 60000 else dur * 1000 + g.rng.randint(0, 9) * 100
            if dur_ms >= g.clock:
                g.wait(g.clock)
                break
            g.wait(dur_ms)
            x = g.rng.random()
            late = last and g.clock < stop_after_made_from_ms
            if x < p["two"] + p["three"]:
                kind = "two" if x < p["two"] else "three"
                g.score(side, kind, clock=g.rng.random() < 0.9, points=g.rng.random() < 0.1)
                if late:
                    g.stop_clock()
                    g.wait(g.secs(4, 9))
                    g.start_clock()
                side = other(side)
            elif x < p["two"] + p["three"] + p["foul"]:
                g.stop_clock()
                shots = 3 if g.rng.random() < 0.08 else 2
                if g.rng.random() < 0.2:  # and-one: the basket counts, then one free throw
                    g.score(side, "two", clock=True)
                    shots = 1
                shooter = g.player(side)
                g.wait(g.secs(20, 40))
                for i in range(shots):
                    if i:
                        g.wait(g.secs(12, 22))
                    if g.rng.random() < p["ft"]:
                        g.score(side, "freeThrow", player=shooter, clock=g.rng.random() < 0.85)
                if g.rng.random() < 0.05:  # a timeout after the free throws
                    g.wait(g.secs(75, 140))
                g.wait(g.secs(4, 10))
                g.start_clock()
                side = other(side)
            elif x < p["two"] + p["three"] + p["foul"] + p["dead"]:
                g.stop_clock()  # out of bounds, a travel, a timeout
                g.wait(g.secs(75, 140) if g.rng.random() < 0.2 else g.secs(8, 25))
                g.start_clock()
                side = other(side) if g.rng.random() < 0.6 else side
            elif g.rng.random() > p["oreb"]:
                side = other(side)
        g.running = False
        g.end_period()
        hs, as_ = score_now(g)
        if n >= r["periods"] and hs != as_:
            break
        g.wait((15 * 60 + g.rng.randint(0, 60)) * 1000 if (n == r["periods"] // 2 and n < r["periods"]) else g.secs(125, 140))
        n += 1
    g.wait(g.secs(10, 40))
    g.end_game()


def score_now(g):
    f = replay(g.lines, check=False)
    return f["inPlay"]["home"], f["inPlay"]["away"]


def lead_changes_after(lines, period, clock_ms):
    f = replay(lines, check=False)
    changes = 0
    lead = 0
    for play in f["plays"]:
        d = (play["home"] > play["away"]) - (play["home"] < play["away"])
        late = play["period"] > period or (play["period"] == period and play.get("clockMs", 10 ** 9) <= clock_ms)
        if d != 0 and lead != 0 and d != lead and late:
            changes += 1
        if d != 0:
            lead = d
    return changes


def search(make, accept, tries=4000):
    for seed in range(tries):
        g = make(seed)
        if accept(g):
            return g
    raise SystemExit("no seed satisfies the constraints of %s" % make(0).name)


NBA_P = dict(two=0.25, three=0.11, foul=0.22, dead=0.10, ft=0.78, oreb=0.22)
COLLEGE_P = dict(two=0.27, three=0.10, foul=0.10, dead=0.12, ft=0.72, oreb=0.28)
WNBA_P = dict(two=0.28, three=0.10, foul=0.11, dead=0.12, ft=0.80, oreb=0.25)

TEAMS = {
    "BOS": dict(code="BOS", name="Boston Celtics", players=roster("Marcus Hale", "Devin Okafor", "Jalen Pruitt", "Theo Marsh", "Andre Kimble", "Luka Brennan", "Sam Whitfield")),
    "LAL": dict(code="LAL", name="Los Angeles Lakers", players=roster("Darius Cole", "Reggie Vance", "Miles Ortega", "Cam Bishop", "Nate Ellison", "Tyrese Lund", "Jordan Fisk")),
    "LVA": dict(code="LVA", name="Las Vegas Aces", players=roster("Kayla Reyes", "Brianna Holt", "Jasmine Ford", "Tess Albright", "Monique Varga", "Alana Price")),
    "NYL": dict(code="NYL", name="New York Liberty", players=roster("Simone Archer", "Dana Whitlock", "Keisha Moreno", "Ivy Castellano", "Renee Dubois", "Lola Stanton")),
    "DUKE": dict(code="DUKE", name="Duke Blue Devils", players=roster("Caleb Winslow", "Isaiah Grant", "Trey Holloway", "Owen Pike", "Max Rutledge", "Eli Sandoval")),
    "UNC": dict(code="UNC", name="North Carolina Tar Heels", players=roster("Jaden Crowe", "Micah Lowery", "Ty Barrington", "Zach Ferrell", "Quinn Abbott", "Ray Delgado")),
    "LIV": dict(code="LIV", name="Liverpool", players=roster("Tom Ashworth", "Rafael Duarte", "Kofi Mensah", "Jonas Lindqvist", "Callum Reid", "Mateo Ibarra", "Elliot Shaw")),
    "CHE": dict(code="CHE", name="Chelsea", players=roster("Noah Pembridge", "Lucas Ferreira", "Adam Kowalczyk", "Idris Bakare", "Harvey Quinn", "Bruno Almeida", "Oscar Lindgren")),
    "ARS": dict(code="ARS", name="Arsenal", players=roster("Leo Hartley", "Yusuf Demir", "Ben Carlisle", "Pablo Serrano", "Finn Gallagher", "Ravi Nair")),
    "TOT": dict(code="TOT", name="Tottenham Hotspur", players=roster("Jamie Thornton", "Sergio Vidal", "Kwame Asante", "Lars Eriksen", "Danny Fowler", "Hugo Marchand")),
    "MCI": dict(code="MCI", name="Manchester City", players=roster("Erik Solberg", "Diego Navarro", "Will Prescott", "Ilkay Brandt", "Nico Ferraro", "Jack Holden")),
    "NEW": dict(code="NEW", name="Newcastle United", players=roster("Alex Isherwood", "Bruno Santos", "Joe Whitaker", "Sven Olsen", "Kieran Doyle", "Matt Farrow")),
    "TOR": dict(code="TOR", name="Toronto Maple Leafs", players=roster("Evan Marchetti", "Ryan Holmgren", "Tyler Dunmore", "Caleb Forsythe", "Jonas Vickberg", "Paul Lachance")),
    "MTL": dict(code="MTL", name="Montreal Canadiens", players=roster("Olivier Bastien", "Marc-Andre Pelletier", "Simon Gauthier", "Niko Rautio", "Dylan Carrier", "Felix Ouellet")),
    "EDM": dict(code="EDM", name="Edmonton Oilers", players=roster("Brady Kowal", "Aaron Steen", "Kyle Ridgeway", "Mikael Strand", "Owen Tallis", "Grant Lysak")),
    "VGK": dict(code="VGK", name="Vegas Golden Knights", players=roster("Colton Prager", "Tomas Veselka", "Reid Harmon", "Jesse Lindahl", "Shane Mercer", "Nolan Ashby")),
    "FLA": dict(code="FLA", name="Florida Panthers", players=roster("Viktor Salonen", "Drew Kessler", "Luca Benedetti", "Mason Crews", "Anton Falk", "Troy Waddell")),
    "CAR": dict(code="CAR", name="Carolina Hurricanes", players=roster("Ethan Brisco", "Rasmus Ekholt", "Jake Sorensen", "Ilya Morozko", "Cody Pratt", "Dominik Hrubec")),
    "KC": dict(code="KC", name="Kansas City Chiefs", players=roster("Trent Kimball", "Marcus Oduya", "Dion Hadley", "Cory Latham", "Reese Whitmore", "Gavin Stroud"), kicker="Gavin Stroud"),
    "BUF": dict(code="BUF", name="Buffalo Bills", players=roster("Brock Tillman", "Jamal Easley", "Ty Norcross", "Wes Harrigan", "Andre Pulley", "Nick Ferrante"), kicker="Nick Ferrante"),
    "PHI": dict(code="PHI", name="Philadelphia Eagles", players=roster("Cole Brandt", "Darnell Voss", "Isaiah Mabry", "Luke Devlin", "Terrence Olu", "Matt Keegan"), kicker="Matt Keegan"),
    "DAL": dict(code="DAL", name="Dallas Cowboys", players=roster("Ryder Caskey", "Jordan Beale", "Quentin Hollis", "Sean Ratliff", "Malik Dorsey", "Ben Averill"), kicker="Ben Averill"),
    "MICH": dict(code="MICH", name="Michigan Wolverines", players=roster("Carson Pell", "Devonte Rusk", "Aidan Kowalski", "Jalen Meeks", "Will Sturgis"), kicker="Will Sturgis"),
    "OSU": dict(code="OSU", name="Ohio State Buckeyes", players=roster("Grayson Tull", "Kendrick Amos", "Parker Lindell", "Xavier Coombs", "Eli Brandauer"), kicker="Eli Brandauer"),
}


def make_nba(seed):
    g = Game("nba-overtime", "nba", "2026-03-08-LAL-BOS", TEAMS["BOS"], TEAMS["LAL"], "2026-03-09T00:30:00Z", seed)
    basketball(g, 13.5, NBA_P, 2 * 60000)
    return g


def accept_nba(g):
    f = replay(g.lines, check=False)
    return (len(f["periods"]) == 5 and 170 <= len(f["plays"]) <= 195 and max(f["inPlay"].values()) <= 150
            and lead_changes_after(g.lines, 4, 3 * 60000) >= 2)


def make_wnba(seed):
    g = Game("wnba-regulation", "wnba", "2026-07-11-NYL-LVA", TEAMS["LVA"], TEAMS["NYL"], "2026-07-12T02:00:00Z", 1000 + seed,
             regulation_kinds=False)
    basketball(g, 16.0, WNBA_P, 2 * 60000)
    return g


def accept_regulation(n):
    def accept(g):
        f = replay(g.lines, check=False)
        return len(f["periods"]) == n and abs(f["inPlay"]["home"] - f["inPlay"]["away"]) <= 9
    return accept


def make_ncaa(seed):
    g = Game("ncaa-men-halves", "ncaa-men", "2026-02-07-UNC-DUKE", TEAMS["DUKE"], TEAMS["UNC"], "2026-02-07T23:00:00Z", 2000 + seed)
    basketball(g, 17.5, COLLEGE_P, 60000)
    return g


# ---------------------------------------------------------------- soccer

def soccer_half(g, n, end_ms, events, first=False):
    """Plays a half (or an extra-time period) of continuous clock: events are (clock_ms, fn)."""
    if not first:
        g.start_period(n)
    g.wait(g.secs(20, 50))
    g.start_clock()
    for clock_ms, fn in sorted(events, key=lambda e: e[0]):
        assert clock_ms > g.clock
        g.wait(clock_ms - g.clock)
        fn()
    g.wait(end_ms - g.clock)
    g.end_period()


def at_min(m, s=None, rng=None):
    """Clock value in ms for the match time m:ss (s random when not given)."""
    return (m * 60 + (s if s is not None else rng.randint(0, 59))) * 1000


def make_knockout():
    g = Game("knockout-shootout", "knockout-soccer", "2026-03-07-CHE-LIV", TEAMS["LIV"], TEAMS["CHE"], "2026-03-07T17:45:00Z", 11)
    r = g.rng
    g.start_game(g.starts + g.secs(30, 90))
    sc = lambda side, kind, player=True: (lambda: g.score(side, kind, player=player))
    card = lambda side, c, player: (lambda: g.emit("card.shown", team=side, card=c, player=player, clock=g.clock_value()))
    disallowed = {}

    def var_goal():
        disallowed["id"] = g.score("home", "goal", player="Kofi Mensah")

    def var_check():
        g.emit("event.retracted", retracts=disallowed["id"], reason="VAR: offside in the build-up")

    # the own goal: a Liverpool defender puts it in his own net; it counts for Chelsea (away)
    soccer_half(g, 1, at_min(47, 5), [
        (at_min(22, 41), sc("away", "ownGoal", "Jonas Lindqvist")),
        (at_min(31, 12), card("home", "yellow", "Callum Reid")),
        (at_min(38, 3), sc("home", "goal", "Rafael Duarte")),
    ], first=True)
    g.wait((15 * 60 + 40) * 1000)
    soccer_half(g, 2, at_min(95, 31), [
        (at_min(66, 18), var_goal),
        (at_min(68, 2), var_check),
        (at_min(73, 40), card("away", "red", "Idris Bakare")),
        (at_min(80, 55), sc("away", "goal", "Lucas Ferreira")),
        (at_min(92, 27), sc("home", "goal", "Tom Ashworth")),  # 90+3'
    ])
    g.wait((4 * 60 + 50) * 1000)
    soccer_half(g, 3, at_min(106, 2), [
        (at_min(97, 34), sc("away", "goal", "Noah Pembridge")),
        (at_min(101, 9), card("away", "yellow", "Harvey Quinn")),
    ])
    g.wait((1 * 60 + 45) * 1000)
    soccer_half(g, 4, at_min(121, 48), [
        (at_min(112, 50), sc("home", "goal", "Mateo Ibarra")),
    ])
    g.wait((5 * 60 + 20) * 1000)
    g.start_period(5)
    n_before = len(g.lines)
    shootout(g, "away", 5, 0.75, gap=(55, 85))
    kicks = g.lines[n_before:]
    assert len(kicks) >= 8 and any(not k["scored"] for k in kicks) and sum(k["scored"] for k in kicks) >= 4
    g.wait(g.secs(20, 40))
    g.end_period()
    g.wait(g.secs(30, 90))
    g.end_game()
    return g


def make_league_draw():
    g = Game("league-draw", "league-soccer", "2026-01-17-TOT-ARS", TEAMS["ARS"], TEAMS["TOT"], "2026-01-17T12:30:00Z", 12,
             with_confirmation=False)
    g.start_game(g.starts + g.secs(10, 60))
    card = lambda side, c, player: (lambda: g.emit("card.shown", team=side, card=c, player=player, clock=g.clock_value()))
    soccer_half(g, 1, at_min(46, 38), [
        (at_min(17, 20), card("away", "yellow", "Kwame Asante")),
        (at_min(33, 51), sc_fn(g, "away", "penalty", "Sergio Vidal")),
        (at_min(40, 2), card("home", "yellow", "Ben Carlisle")),
    ], first=True)
    g.wait((15 * 60 + 12) * 1000)
    soccer_half(g, 2, at_min(94, 21), [
        (at_min(63, 30), lambda: g.set_clock(g.clock)),  # a provider's clock sync, on time: no jump
        (at_min(70, 44), sc_fn(g, "home", "goal", "Leo Hartley")),
        (at_min(76, 12), card("away", "secondYellow", "Kwame Asante")),
        (at_min(88, 9), card("home", "yellow", "Pablo Serrano")),
    ])
    g.wait(g.secs(20, 60))
    g.end_game()
    return g


def sc_fn(g, side, kind, player):
    return lambda: g.score(side, kind, player=player)


def make_league_win():
    g = Game("league-win", "league-soccer", "2026-02-21-NEW-MCI", TEAMS["MCI"], TEAMS["NEW"], "2026-02-21T15:00:00Z", 13)
    g.start_game(g.starts + g.secs(10, 60))
    card = lambda side, c, player: (lambda: g.emit("card.shown", team=side, card=c, player=player, clock=g.clock_value()))
    soccer_half(g, 1, at_min(47, 55), [
        (at_min(11, 37), sc_fn(g, "home", "goal", "Erik Solberg")),
        (at_min(29, 5), lambda: g.set_clock(g.clock)),
        (at_min(46, 31), sc_fn(g, "away", "goal", "Alex Isherwood")),  # 45+2'
        (at_min(47, 12), card("home", "yellow", "Will Prescott")),  # 45+3'
    ], first=True)
    g.wait((15 * 60 + 3) * 1000)
    soccer_half(g, 2, at_min(95, 2), [
        (at_min(57, 48), sc_fn(g, "home", "goal", "Diego Navarro")),
        (at_min(81, 20), card("away", "yellow", "Joe Whitaker")),
        (at_min(93, 18), sc_fn(g, "home", "goal", "Nico Ferraro")),  # 90+4'
    ])
    g.wait(g.secs(20, 60))
    g.end_game()
    return g


# ---------------------------------------------------------------- hockey

def hockey_period(g, n, goals, first=False, retract=None, sudden_death=False):
    """goals: [(clock_ms remaining, side, player)]; retract: index of a goal taken back on a challenge."""
    if not first:
        g.start_period(n)
    g.wait(g.secs(15, 40))
    g.start_clock()
    stops = []
    c = g.clock
    while True:
        c -= g.rng.randint(25, 95) * 1000
        if c <= 5000:
            break
        stops.append(c)
    goal_at = {gl[0]: (i, gl) for i, gl in enumerate(goals)}
    stops = sorted(set(s for s in stops if all(abs(s - k) > 8000 for k in goal_at)) | set(goal_at), reverse=True)
    for s in stops:
        if s >= g.clock:
            assert s not in goal_at, ("goal time already past", g.name, s)
            continue
        g.wait(g.clock - s)
        if s in goal_at:
            i, (_, side, player) = goal_at[s]
            gid = g.score(side, "goal", player=player)
            g.stop_clock()
            if sudden_death:
                g.wait(g.secs(20, 60))
                g.end_period()
                return
            if retract == i:
                g.wait(g.secs(110, 190))
                g.emit("event.retracted", retracts=gid, reason="coach's challenge: offside")
                g.wait(g.secs(10, 25))
                g.set_clock(g.clock + 9000)  # the clock goes back to the offside
            g.wait(g.secs(45, 75))
        else:
            g.stop_clock()
            g.wait(g.secs(150, 200) if g.rng.random() < 0.08 else g.secs(22, 48))
        g.start_clock()
    g.wait(g.clock)
    g.running = False
    g.end_period()


def mmss(m, s):
    return (m * 60 + s) * 1000


def make_nhl_shootout():
    g = Game("nhl-shootout", "nhl", "2026-01-24-MTL-TOR", TEAMS["TOR"], TEAMS["MTL"], "2026-01-25T00:00:00Z", 21)
    g.start_game(g.starts + g.secs(60, 240))
    hockey_period(g, 1, [(mmss(12, 44), "away", "Olivier Bastien")], first=True)
    g.wait(mmss(18, 5))
    hockey_period(g, 2, [(mmss(15, 2), "home", "Ryan Holmgren"), (mmss(3, 51), "home", "Jonas Vickberg")])
    g.wait(mmss(18, 2))
    hockey_period(g, 3, [(mmss(8, 17), "away", "Simon Gauthier")])
    g.wait(mmss(1, 40))
    hockey_period(g, 4, [])
    g.wait(mmss(2, 30))
    g.start_period(5)
    shootout(g, "away", 3, 0.4, gap=(50, 75))
    g.wait(g.secs(15, 30))
    g.end_period()
    g.wait(g.secs(20, 60))
    g.end_game()
    return g


def make_nhl_regulation():
    g = Game("nhl-regulation", "nhl", "2026-02-03-VGK-EDM", TEAMS["EDM"], TEAMS["VGK"], "2026-02-04T02:00:00Z", 22)
    g.start_game(g.starts + g.secs(60, 240))
    hockey_period(g, 1, [(mmss(16, 20), "home", "Brady Kowal"), (mmss(6, 9), "away", "Colton Prager")], first=True)
    g.wait(mmss(18, 0))
    hockey_period(g, 2, [(mmss(13, 33), "away", "Tomas Veselka"), (mmss(9, 48), "home", "Aaron Steen"),
                         (mmss(2, 15), "home", "Kyle Ridgeway")], retract=1)
    g.wait(mmss(18, 10))
    hockey_period(g, 3, [(mmss(17, 5), "home", "Aaron Steen"), (mmss(11, 40), "home", "Mikael Strand"),
                         (mmss(1, 12), "away", "Reid Harmon")])
    g.wait(g.secs(30, 70))
    g.end_game()
    return g


def make_nhl_playoff():
    g = Game("nhl-playoff-2ot", "nhl-playoffs", "2026-05-20-CAR-FLA", TEAMS["FLA"], TEAMS["CAR"], "2026-05-21T00:00:00Z", 23)
    g.start_game(g.starts + g.secs(60, 240))
    hockey_period(g, 1, [(mmss(9, 3), "away", "Ethan Brisco")], first=True)
    g.wait(mmss(18, 0))
    hockey_period(g, 2, [(mmss(14, 27), "home", "Viktor Salonen"), (mmss(0, 41) + 300, "away", "Ilya Morozko")])
    g.wait(mmss(18, 0))
    hockey_period(g, 3, [(mmss(5, 58), "home", "Drew Kessler")])
    g.wait(mmss(18, 0))
    hockey_period(g, 4, [])
    g.wait(mmss(18, 0))
    hockey_period(g, 5, [(mmss(13, 29), "home", "Luca Benedetti")], sudden_death=True)
    g.wait(g.secs(30, 60))
    g.end_game()
    return g


# ---------------------------------------------------------------- football

class Football:
    """Drives made of plays; each drive's outcome is scripted (`mode`), the plays are random."""

    def __init__(self, g, touchback):
        self.g = g
        self.touchback = touchback
        self.two_minute = g.competition.startswith("nfl")

    def situation(self, side, down=None, dist=None, yl=None, turnover=False):
        g = self.g
        f = {"possession": side}
        if down is not None:
            f.update(down=down, distance=min(dist, 99), yardLine=yl)
        if turnover:
            f["turnover"] = True
        if g.timed:
            f["clock"] = g.clock_value()
        g.emit("situation.changed", **f)

    def snap(self):
        """Time until the next snap; returns False when the period ran out first."""
        g = self.g
        if not g.timed:
            g.wait(g.secs(28, 42))
            return True
        if g.running:
            runoff = g.rng.randint(24, 38) * 1000
            if self.two_minute and g.period in (2, 4) and g.clock > 120000 and g.clock - runoff <= 120000:
                g.wait(g.clock - 120000)
                g.stop_clock()  # the two-minute warning
                g.wait(g.secs(110, 150))
                g.start_clock()
                return True
            if runoff >= g.clock:
                g.wait(g.clock)
                return False
            g.wait(runoff)
        else:
            g.wait(g.secs(25, 45))
            g.start_clock()
        return True

    def play(self, stops):
        """The ball is live for a few seconds; returns False when the period's time ran out in it."""
        g = self.g
        d = g.rng.randint(4, 8) * 1000
        if g.timed:
            d = min(d, g.clock)
            g.wait(d)
            if g.clock == 0:
                g.stop_clock()  # time ran out in the play
                return False
            if stops:
                g.stop_clock()
        else:
            g.wait(d)
        return True

    def period_over(self):
        """The clock hit 0:00: ends the period; True when a half (or the game) is over."""
        g = self.g
        g.running = False
        g.end_period()
        if g.period in (1, 3):
            g.wait(g.secs(100, 140))
            g.start_period(g.period + 1)
            return False
        return True

    def drive(self, side, mode, yl, announce=True):
        """Runs one drive; returns (how it ended, the next drive's start yard line)."""
        g = self.g
        rng = g.rng
        down, dist = 1, min(10, 100 - yl)
        target = {"fg": rng.randint(62, 72), "fg_win": rng.randint(66, 74), "fg_miss": rng.randint(60, 66)}.get(mode)
        turnover_after = rng.randint(2, 6)
        n = 0
        if announce:  # after an interception, the turnover's situation already says it
            self.situation(side, 1, dist, yl)
        while True:
            if not self.snap():
                if self.period_over():
                    return "half", None
                self.situation(side, down, dist, yl)
                continue
            n += 1
            # what the play does
            if mode == "safety":
                gain = -(yl + rng.randint(0, 3))
                kind = "sack"
            elif mode == "turnover" and (n >= turnover_after or down >= 3):
                kind = "interception"
                gain = rng.randint(5, 15)
            elif down == 4:
                kind = "kick"
                gain = 0
            else:
                kind = rng.choice(["run", "run", "pass", "pass", "incomplete"])
                if mode == "td":
                    gain = 0 if kind == "incomplete" else max(1, int(rng.gauss(9, 6)))
                    if down == 3 and gain < dist:
                        kind, gain = "pass", dist + rng.randint(0, 6)
                elif mode in ("fg", "fg_win", "fg_miss"):
                    if yl < target:
                        gain = 0 if kind == "incomplete" else max(1, int(rng.gauss(8, 4)))
                        if down == 3 and gain < dist:
                            kind, gain = "pass", dist + rng.randint(0, 4)
                    else:
                        gain = 0 if kind == "incomplete" else rng.randint(-2, min(3, dist - 1))
                    gain = min(gain, 99 - yl - 3)
                else:  # punt, punt_pin, turnover: no first down past midfield, no score
                    gain = 0 if kind == "incomplete" else rng.randint(-1, 6)
                    if yl + gain >= 55 or (down == 3 and gain >= dist and rng.random() < 0.7):
                        gain = min(max(0, dist - 1), 54 - yl)
                    if down == 3 and mode == "turnover" and gain >= dist:
                        gain = dist - 1
            if kind == "kick":
                if mode in ("fg", "fg_win", "fg_miss"):
                    self.play(stops=True)
                    g.wait(g.secs(3, 6))
                    if mode == "fg_miss":
                        return "missed", max(100 - (yl - 7), 20)
                    g.score(side, "fieldGoal")
                    return "fg", None
                # a punt
                self.play(stops=g.timed and g.running)
                land = yl + rng.randint(38, 50)
                nxt = 3 if mode == "punt_pin" else (20 if land >= 100 else max(5, 100 - land + rng.randint(0, 8)))
                return "punt", nxt
            out_of_bounds = kind in ("run", "pass") and rng.random() < 0.15
            live = self.play(stops=kind in ("incomplete", "interception") or out_of_bounds)
            if kind == "interception":
                g.wait(g.secs(3, 6))
                nxt = max(5, min(95, 100 - (yl + gain)))
                self.situation(other(side), 1, min(10, 100 - nxt), nxt, turnover=True)
                if not live and self.period_over():
                    return "half", None
                return "turnover", nxt
            yl += gain
            if yl <= 0:
                if g.timed and g.running:
                    g.stop_clock()
                g.wait(g.secs(2, 5))
                g.score(other(side), "safety")
                return "safety", None
            if yl >= 100:
                if g.timed and g.running:
                    g.stop_clock()
                g.wait(g.secs(2, 6))
                g.score(side, "touchdown")
                return "td", None
            if gain >= dist:
                down, dist = 1, min(10, 100 - yl)
            else:
                down, dist = down + 1, dist - gain
            if down > 4:  # not reached: mode logic kicks on fourth down
                raise AssertionError("turnover on downs")
            w = g.secs(2, 5)
            g.wait(min(w, g.clock) if g.timed and g.running else w)
            self.situation(side, down, dist, yl)
            if not live:
                if self.period_over():
                    return "half", None
                self.situation(side, down, dist, yl)

    def after_score(self, side, try_kind):
        g = self.g
        g.wait(g.secs(35, 60))
        if try_kind == "xp":
            g.score(side, "extraPoint")
        elif try_kind == "two":
            g.score(side, "twoPointConversion")
        # "miss": the kick is no good: no scoring event
        g.wait(g.secs(90, 150))  # the break before the kick-off

    def half(self, receiver, script):
        """script: [(mode, try)] for alternating drives; punts fill the time left."""
        g = self.g
        side, yl = receiver, self.touchback
        after_turnover = False
        script = list(script)
        while True:
            mode, try_kind = script.pop(0) if script else ("punt", None)
            how, nxt = self.drive(side, mode, yl, announce=not after_turnover)
            after_turnover = how == "turnover"
            if how == "half":
                assert not script and mode == "punt", ("script did not fit", g.name, mode, script)
                return
            if how == "td":
                self.after_score(side, try_kind or "xp")
                yl = self.touchback
            elif how == "fg":
                g.wait(g.secs(60, 120))
                yl = self.touchback
            elif how == "safety":
                g.wait(g.secs(60, 100))
                yl = g.rng.randint(35, 45)  # the free kick from the 20
            else:
                yl = nxt
            if mode == "fg_win":
                return
            if g.timed and g.clock == 0:  # the drive used the period's last second
                if self.period_over():
                    assert not script, ("script did not fit", g.name, script)
                    return
            g.wait(g.secs(60, 100) if how == "turnover" else g.secs(20, 40))
            side = other(side)


def football_game(name, comp, gid, home, away, starts, seed, first_half, second_half, receiver, ot=None):
    g = Game(name, comp, gid, TEAMS[home], TEAMS[away], starts, seed)
    fb = Football(g, 35 if comp.startswith("nfl") else 25)
    g.start_game(g.starts + g.secs(60, 300))
    fb.half(receiver, first_half)
    g.wait(mmss(13, 30))
    g.start_period(3)
    fb.half(other(receiver), second_half)
    if ot:
        ot(g, fb)
    g.wait(g.secs(30, 90))
    g.end_game()
    return g


def nfl_missed_xp():
    # away (BUF) receives; the first touchdown's kick is missed, a two-point try later, a safety
    return football_game("nfl-missed-xp", "nfl", "2025-11-16-BUF-KC", "KC", "BUF", "2025-11-16T21:25:00Z", 31,
                         [("td", "miss"), ("fg", None), ("turnover", None), ("td", "xp"), ("punt", None),
                          ("punt_pin", None), ("safety", None)],
                         [("punt", None), ("td", "two"), ("fg", None), ("punt", None), ("td", "xp"), ("turnover", None)],
                         "away")


def nfl_overtime():
    def ot(g, fb):
        g.wait(g.secs(150, 220))
        g.start_period(5)
        g.wait(g.secs(30, 60))
        fb.half("away", [("punt", None), ("fg_win", None)])
        g.wait(g.secs(20, 40))
        g.running = False
        g.end_period()

    return football_game("nfl-overtime", "nfl", "2025-12-14-DAL-PHI", "PHI", "DAL", "2025-12-14T21:25:00Z", 32,
                         [("td", "xp"), ("fg", None), ("punt", None), ("td", "xp"), ("fg", None)],
                         [("td", "xp"), ("punt", None), ("punt", None), ("td", "xp")],
                         "away", ot)


def ncaa_2ot():
    def ot(g, fb):
        g.wait(g.secs(150, 220))
        for n, plan in ((5, [("away", "td", "xp"), ("home", "td", "xp")]), (6, [("home", "fg", None), ("away", "td", None)])):
            g.start_period(n)
            for side, mode, try_kind in plan:
                g.wait(g.secs(40, 90))
                how, _ = fb.drive(side, mode, 75)
                assert how == mode, (how, mode)
                if try_kind:
                    g.wait(g.secs(35, 60))
                    g.score(side, "extraPoint")
            g.wait(g.secs(20, 40))
            g.end_period()
            if n == 5:
                g.wait(g.secs(60, 120))

    return football_game("ncaa-football-2ot", "ncaa-football", "2025-11-29-OSU-MICH", "MICH", "OSU", "2025-11-29T17:00:00Z", 33,
                         [("td", "xp"), ("td", "xp"), ("fg", None), ("punt", None)],
                         [("fg", None), ("td", "xp"), ("td", "xp")],
                         "away", ot)


# ---------------------------------------------------------------- replay: rules and figures

def replay(lines, check=True):
    """Folds the messages by docs/sports.md; returns the official figures."""
    def need(cond, msg):
        if check and not cond:
            raise AssertionError(msg)

    first = lines[0]
    rules = dict(PRESETS[first.get("competition")])
    sport = rules.pop("sport")
    counts_down = sport != "soccer"
    seen_ids = set()
    score = {"home": 0, "away": 0}
    periods = []  # in-play points per period (excluding the shoot-out)
    plays = []  # scoring plays in order (dicts), retracted removed at the end
    by_id = {}
    retracted = set()
    attempts = {}
    period = 0
    running_period = False
    anchor = None  # (at_ms, value_ms, running)
    status = "scheduled"
    last_at = 0
    ended = False

    def kind_of(n):
        if n <= rules["periods"]:
            return "regulation"
        if rules["overtimes"] == UNLIMITED or n <= rules["periods"] + rules["overtimes"]:
            return "extraTime" if sport == "soccer" else "overtime"
        return "shootout"

    def untimed(n):
        k = kind_of(n)
        return k == "shootout" or (k == "overtime" and rules["overtimeMinutes"] == 0)

    def now_clock(at):
        t0, v, run = anchor
        if not run:
            return v
        return v - (at - t0) if counts_down else v + (at - t0)

    def check_clock(m, at, exact=True):
        if "clock" not in m:
            return
        need(not untimed(period), "%s: a clock in an untimed period" % m["id"])
        v = parse_clock(m["clock"])
        need(anchor is not None, "%s: clock before the start" % m["id"])
        p = now_clock(at)
        need(abs(p - v) <= 200, "%s: clock %s but the anchor says %s" % (m["id"], m["clock"], fmt_clock(max(0, p // 100 * 100))))

    def start_clock(n):
        r = rules
        k = kind_of(n)
        if sport == "soccer":
            return (n - 1) * r["periodMinutes"] * 60000 if k == "regulation" else \
                (r["periods"] * r["periodMinutes"] + (n - r["periods"] - 1) * r["overtimeMinutes"]) * 60000
        return (r["periodMinutes"] if k == "regulation" else r["overtimeMinutes"]) * 60000

    for i, m in enumerate(lines):
        mid, t = m["id"], m["type"]
        need(mid not in seen_ids, "duplicate id %s" % mid)
        seen_ids.add(mid)
        at = parse_at(m["at"])
        need(at >= last_at, "%s: at goes backwards" % mid)
        last_at = at
        need(not ended, "%s after game.ended" % mid)
        if i == 0:
            need(t == "game.scheduled", "first message is not game.scheduled")
            continue
        if t == "game.started":
            need(status == "scheduled", "%s: started twice" % mid)
            status, period, running_period = "inprogress", 1, True
            periods.append([0, 0])
            anchor = (at, start_clock(1), False)
        elif t == "period.started":
            n = m["period"]
            need(m.get("kind", kind_of(n)) == kind_of(n), "%s: kind %s, expected %s" % (mid, m.get("kind"), kind_of(n)))
            if n == period and running_period:
                continue  # a confirmation
            need(n == period + 1 and not running_period and status == "inprogress", "%s: period %d out of order" % (mid, n))
            k = kind_of(n)
            # the first overtime needs a tie; so does each further one, except soccer's second
            # extra-time period, which is played whatever the score after the first
            if k == "overtime" or (k == "extraTime" and n == rules["periods"] + 1):
                need(score["home"] == score["away"], "%s: overtime with the score not tied" % mid)
            if k == "shootout":
                need(rules["shootout"] and score["home"] == score["away"], "%s: shoot-out not allowed" % mid)
            period, running_period = n, True
            if k != "shootout":
                periods.append([0, 0])
            anchor = (at, start_clock(n) if not untimed(n) else 0, False)
        elif t == "period.ended":
            need(m["period"] == period and running_period, "%s: period.ended %d but period %d" % (mid, m["period"], period))
            if counts_down and anchor[2] and not untimed(period):
                need(abs(now_clock(at)) <= 200, "%s: period ends with %d ms left" % (mid, now_clock(at)))
            v = 0 if counts_down else now_clock(at)
            anchor = (at, v, False)
            running_period = False
        elif t in ("clock.set", "clock.started", "clock.stopped"):
            need(running_period and not untimed(period), "%s: clock event outside a timed running period" % mid)
            if t == "clock.set":
                anchor = (at, parse_clock(m["clock"]), anchor[2])
                continue
            if "clock" in m:
                if t == "clock.started":
                    need(not anchor[2] and parse_clock(m["clock"]) == anchor[1], "%s: clock.started jumps" % mid)
                else:
                    check_clock(m, at)
            need(anchor[2] == (t == "clock.stopped"), "%s: %s but the clock is already so" % (mid, t))
            v = parse_clock(m["clock"]) if "clock" in m else now_clock(at)
            anchor = (at, v, t == "clock.started")
        elif t == "points.scored":
            need(running_period and kind_of(period) != "shootout", "%s: scoring outside a running period" % mid)
            pts = KIND_POINTS[sport].get(m["kind"])
            need(pts is not None and m.get("points", pts) == pts, "%s: bad kind/points" % mid)
            check_clock(m, at)
            side = m["team"]
            score[side] += pts
            periods[-1][0 if side == "home" else 1] += pts
            play = {"id": mid, "period": period, "side": side, "points": pts, "periodIndex": len(periods) - 1}
            if "clock" in m:
                play["clockMs"] = parse_clock(m["clock"])
            plays.append(play)
            by_id[mid] = ("play", play)
        elif t == "shootout.attempt":
            need(running_period and kind_of(period) == "shootout", "%s: attempt outside a shoot-out" % mid)
            attempts[mid] = m
            by_id[mid] = ("attempt", m)
        elif t == "card.shown":
            need(sport == "soccer" and running_period, "%s: card outside soccer" % mid)
            check_clock(m, at)
            by_id[mid] = ("card", m)
        elif t == "situation.changed":
            need(sport == "football" and status == "inprogress", "%s: situation outside football" % mid)
            check_clock(m, at)
            if "down" in m:
                need(1 <= m["down"] <= 4 and 1 <= m["distance"] <= 99 and 1 <= m["yardLine"] <= 99, "%s: bad situation" % mid)
        elif t == "event.retracted":
            r = m["retracts"]
            need(r in by_id and r not in retracted, "%s: bad retraction" % mid)
            retracted.add(r)
            what, obj = by_id[r]
            if what == "play":
                score[obj["side"]] -= obj["points"]
                periods[obj["periodIndex"]][0 if obj["side"] == "home" else 1] -= obj["points"]
        elif t == "game.ended":
            need(m["status"] == "closed" and i == len(lines) - 1, "%s: game.ended not last" % mid)
            ended = True
        else:
            need(False, "%s: unexpected type %s" % (mid, t))

    so = None
    if attempts:
        so = {"home": 0, "away": 0}
        for aid, a in attempts.items():
            if aid not in retracted and a["scored"]:
                so[a["team"]] += 1
    live_plays = [p for p in plays if p["id"] not in retracted]
    run = {"home": 0, "away": 0}
    for p in live_plays:
        run[p["side"]] += p["points"]
        p["home"], p["away"] = run["home"], run["away"]
    final = dict(score)
    if so and sport == "hockey":
        final["home" if so["home"] > so["away"] else "away"] += 1
    if ended:
        tied = score["home"] == score["away"]
        decided = so is not None and so["home"] != so["away"]
        need(not tied or rules["tieStands"] or decided, "game.ended closed with a tie the rules do not allow")
    return {"sport": sport, "inPlay": dict(score), "final": final, "periods": periods, "shootout": so,
            "plays": live_plays, "ended": ended}


# ---------------------------------------------------------------- the files

def build_all():
    games = [
        search(make_nba, accept_nba),
        search(make_wnba, accept_regulation(4)),
        search(make_ncaa, accept_regulation(2)),
        make_knockout(),
        make_league_draw(),
        make_league_win(),
        make_nhl_shootout(),
        make_nhl_regulation(),
        make_nhl_playoff(),
        nfl_missed_xp(),
        nfl_overtime(),
        ncaa_2ot(),
    ]
    return games


DESCRIPTIONS = {
    "nba-overtime": "NBA: tied after four quarters, one 5-minute overtime (period 5); clock.started/clock.stopped around dead balls, timeouts and free throws, the clock stopped after made baskets in the last two minutes, tenths under a minute, late lead changes, `two`/`three`/`freeThrow` (some with `points` written out, some without `clock`).",
    "wnba-regulation": "WNBA preset (4 × 10), decided in regulation; `period.started` without `kind` (derived).",
    "ncaa-men-halves": "NCAA men (2 × 20 halves): two periods only, half-time between them.",
    "knockout-shootout": "Knockout soccer: an own goal (`team` is the side it counts for), a goal disallowed by `event.retracted` (VAR), a red card, a 90+3' equaliser, extra time (periods 3 and 4, `extraTime`, clock from 90:00 and 105:00), then a shoot-out (period 5) with missed and scored kicks, decided.",
    "league-draw": "League soccer ending 1–1 (a tie stands): a penalty, a yellow then a secondYellow for the same player, a `clock.set` on time; no `period.started` confirmation after `game.started`.",
    "league-win": "League soccer: stoppage-time goals at 45+2' (clock 46:31) and 90+4' (93:18), a yellow at 47:12 (45+3'), a `clock.set` on time.",
    "nhl-shootout": "NHL: 2–2 after three periods, a scoreless 5-minute overtime (period 4), a shoot-out (period 5) decided; the winner gets one goal in the final score, the line score keeps the in-play goals.",
    "nhl-regulation": "NHL in regulation: a goal taken back on a coach's challenge (`event.retracted`), the clock then set back 9 s with `clock.set` (a jump), seven goals that count.",
    "nhl-playoff-2ot": "NHL playoffs: tied after three, a scoreless 20-minute overtime (period 4), a sudden-death goal in double overtime (period 5).",
    "nfl-missed-xp": "NFL: a touchdown whose extra point is missed (no scoring event), a two-point conversion, field goals, a safety, `situation.changed` with downs, distance and yard line, interceptions with `turnover: true`, clock stops, the two-minute warning.",
    "nfl-overtime": "NFL: tied after four quarters, overtime (period 5, `overtime`, 10:00): the first possession punts, the second kicks the winning field goal.",
    "ncaa-football-2ot": "NCAA football: tied after regulation, untimed overtimes (periods 5 and 6) with no clock events and no `clock` on plays, each possession from the opponent's 25; a touchdown each in 1OT, a field goal then a winning touchdown (no try) in 2OT.",
}


def period_labels(sport, competition, n):
    r = PRESETS[competition]
    labels = []
    for i in range(1, n + 1):
        if i <= r["periods"]:
            labels.append({"soccer": ["1st Half", "2nd Half"], "hockey": ["1st", "2nd", "3rd"]}.get(sport, None) and
                          {"soccer": ["1st Half", "2nd Half"], "hockey": ["1st", "2nd", "3rd"]}[sport][i - 1]
                          or ("H%d" % i if r["periods"] == 2 else "Q%d" % i))
        else:
            k = i - r["periods"]
            labels.append(("ET%d" % k) if sport == "soccer" else ("OT" if k == 1 else "%dOT" % k))
    return labels


def strict_load(line):
    def no_dupes(pairs):
        keys = [k for k, _ in pairs]
        assert len(keys) == len(set(keys)), "duplicate key"
        return dict(pairs)
    return json.loads(line, object_pairs_hook=no_dupes)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "fixtures", "sports")
    os.makedirs(out, exist_ok=True)
    expected = {}
    games = build_all()
    for g in games:
        f = replay(g.lines, check=True)
        assert f["ended"]
        assert sum(p[0] for p in f["periods"]) == f["inPlay"]["home"]
        assert sum(p[1] for p in f["periods"]) == f["inPlay"]["away"]
        e = {"sport": f["sport"], "homeScore": f["final"]["home"], "awayScore": f["final"]["away"], "periods": f["periods"]}
        if f["shootout"]:
            e["shootout"] = f["shootout"]
        e["scoringPlays"] = len(f["plays"])
        last = f["plays"][-1]
        e["lastScoring"] = {"homeScore": last["home"], "awayScore": last["away"]}
        assert (last["home"], last["away"]) == (f["inPlay"]["home"], f["inPlay"]["away"])
        expected[g.name] = e
        with open(os.path.join(out, g.name + ".jsonl"), "w", encoding="utf-8") as fh:
            for m in g.lines:
                fh.write(json.dumps(m, ensure_ascii=False, separators=(",", ":")) + "\n")
    with open(os.path.join(out, "expected.json"), "w", encoding="utf-8") as fh:
        json.dump(expected, fh, indent=2, sort_keys=True)
        fh.write("\n")

    # read the files back: every line strict JSON, the replay's figures equal expected.json
    for g in games:
        with open(os.path.join(out, g.name + ".jsonl"), encoding="utf-8") as fh:
            lines = [strict_load(l) for l in fh.read().split("\n") if l]
        f = replay(lines, check=True)
        e = expected[g.name]
        assert (f["final"]["home"], f["final"]["away"], f["periods"], len(f["plays"])) == \
            (e["homeScore"], e["awayScore"], e["periods"], e["scoringPlays"])

    rows = []
    for g in games:
        e = expected[g.name]
        labels = period_labels(e["sport"], g.competition, len(e["periods"]))
        line = ", ".join("%s %d–%d" % (lab, h, a) for lab, (h, a) in zip(labels, e["periods"]))
        so = " (shoot-out %d–%d)" % (e["shootout"]["home"], e["shootout"]["away"]) if "shootout" in e else ""
        emitted = sum(1 for m in g.lines if m["type"] == "points.scored")
        retracted = emitted - e["scoringPlays"]
        rows.append("| `%s.jsonl` | `%s`, `%s` | %s %d, %s %d%s | %s | %d%s | %d |" % (
            g.name, g.competition, g.game_id, g.home["code"], e["homeScore"], g.away["code"], e["awayScore"], so,
            line, e["scoringPlays"], " (%d retracted)" % retracted if retracted else "", len(g.lines)))
    readme = README_HEAD + "\n".join(rows) + "\n\nWhat each game exercises:\n\n" + "\n".join(
        "- `%s`: %s" % (g.name, DESCRIPTIONS[g.name]) for g in games) + "\n" + README_TAIL
    with open(os.path.join(out, "README.md"), "w", encoding="utf-8") as fh:
        fh.write(readme)
    for name, e in expected.items():
        print("%-20s %s %3d-%-3d periods=%s%s plays=%d" % (
            name, e["sport"][:6], e["homeScore"], e["awayScore"], e["periods"],
            " so=%d-%d" % (e["shootout"]["home"], e["shootout"]["away"]) if "shootout" in e else "", e["scoringPlays"]))


README_HEAD = """# Clock-sport fixture games

**These are written games, not real documents.** The teams are real clubs and franchises (their real
codes and names); the players, the plays, the times and the results are invented. They follow the
feed format of [docs/sports.md](../../docs/sports.md) and [docs/feed-format.md](../../docs/feed-format.md):
one message per line, ids `<fixture>-0001`…, `at` in order, `game.scheduled` first, `game.ended`
(`closed`) last.

Generated by `python3 scripts/lib/make_sports_fixtures.py` (stdlib only, seeded, deterministic: running
it again writes the same bytes). The generator replays what it emits with the rules of docs/sports.md
(periods in order, scoring only while a period runs and never in a shoot-out, overtime only when tied,
a shoot-out only when still tied and allowed, a running clock consistent with `at` within 0.2 s,
retractions of earlier scoring plays, the end) and computes every figure below and in
[expected.json](expected.json) from the events, retractions applied. Nothing here is typed by hand.

Official figures (home first; the line score has the in-play points of each period, regulation then
overtime, the shoot-out apart; soccer's shoot-out is not in the result, hockey's winner gets one goal):

| file | competition, game | final | line score | scoring plays | lines |
|---|---|---|---|---|---|
"""

README_TAIL = """
`expected.json` has, per fixture: `sport`, `homeScore`, `awayScore` (the official result), `periods`
(`[home, away]` in-play points per period, shoot-out excluded), `shootout` (`{home, away}`, only when
there was one), `scoringPlays` (after retractions) and `lastScoring` (the running in-play score after
the last scoring play).

Clock values: basketball, hockey and football count down (the time left; tenths under a minute in
basketball and hockey), soccer counts up (the match time: `"46:31"` is 45+2', `"93:18"` is 90+4').
Where a message has both `at` and `clock` and the clock runs, they agree to the tenth.

Reading of the spec the generator relies on: soccer's second extra-time period (period 4) is played
whatever the score after the first; every other overtime period needs the score tied when it starts.
"""


if __name__ == "__main__":
    main()
