extension Scoreboard {
    /// The scoreboard page's script: fills the cards from `/v1/scoreboard`, keeps them current from
    /// `/v1/stream`, and runs each game's clock from its anchor (`clock`: `at`, `ms`, `running`,
    /// `countsDown`; docs/sports.md, "What a game shows") without a request: a countdown never goes
    /// below 0:00, soccer shows the match minute (`53'`, `45+2'`) with the match time beside it.
    static let script = #"""
        "use strict";
        const games = document.getElementById("games");
        const daySelect = document.getElementById("day");
        const connection = document.getElementById("connection");
        const versions = new Map();
        const words = { scheduled: "Scheduled", inprogress: "Live", delayed: "Delayed", suspended: "Suspended",
                        closed: "Final", cancelled: "Cancelled", postponed: "Postponed" };
        const groups = { scheduled: "scheduled", inprogress: "live", delayed: "live", suspended: "live",
                         closed: "final", cancelled: "final", postponed: "final" };
        const ordinals = ["1st", "2nd", "3rd", "4th"];
        let currentDay = null;
        let filter = "all";
        let refreshTimer = null;

        const el = (tag, className, textContent) =>
          Object.assign(document.createElement(tag), className ? { className } : {}, textContent != null ? { textContent } : {});
        // Days are the viewer's: the server files games under days of this time zone.
        const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
        const dayFormat = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" });
        const dayOf = (iso) => dayFormat.format(new Date(iso));
        const askedDay = () => new URLSearchParams(location.search).get("day");
        // The game of a /games/{id} page, or null on the board.
        const pageGame = location.pathname.startsWith("/games/") ? decodeURIComponent(location.pathname.slice(7)) : null;
        const dayLabel = (day) => new Date(day + "T12:00:00Z").toLocaleDateString([], { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" });
        const two = (n) => String(n).padStart(2, "0");
        // Soccer lists the home side first, the other sports the visitors.
        const sideOrder = (sport) => sport === "soccer" ? ["home", "away"] : ["away", "home"];

        function diamond() {
          const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
          svg.setAttribute("viewBox", "0 0 40 40");
          svg.setAttribute("aria-hidden", "true");
          svg.classList.add("diamond");
          for (const [name, x, y] of [["second", 20, 9], ["third", 9, 20], ["first", 31, 20]]) {
            const base = document.createElementNS("http://www.w3.org/2000/svg", "rect");
            base.setAttribute("x", x - 5); base.setAttribute("y", y - 5);
            base.setAttribute("width", 10); base.setAttribute("height", 10);
            base.setAttribute("transform", `rotate(45 ${x} ${y})`);
            base.classList.add("base", name);
            svg.append(base);
          }
          return svg;
        }

        function teamRow(side) {
          const row = el("div", `team ${side}`);
          const who = el("span", "who");
          who.append(el("span", "marks"), el("span", "name"));
          row.append(el("span", "code"), who, el("span", "runs"));
          return row;
        }

        function card(gameId) {
          let element = games.querySelector(`[data-game="${CSS.escape(gameId)}"]`);
          if (element) return element;
          element = el("article", "card");
          element.dataset.game = gameId;
          element.tabIndex = 0;
          const top = el("div", "top");
          const open = el("a", "open", "Game page");
          open.href = `/games/${encodeURIComponent(gameId)}`;
          open.addEventListener("click", (event) => event.stopPropagation());
          top.append(el("span", "status-word"), el("span", "stale", "stale"), el("span", "start"), open);
          const situation = el("div", "situation");
          const clock = el("span", "clock");
          clock.setAttribute("role", "timer");
          clock.hidden = true;
          situation.append(diamond(), el("span", "period inning"), clock, el("span", "outs"), el("span", "note"));
          element.append(top, teamRow("away"), teamRow("home"), situation, el("div", "lines-wrap"),
                         el("div", "push", "no push yet"));
          // On the board a card opens the game's page (on that page it is the page).
          if (pageGame === null) {
            element.addEventListener("click", () => { location.href = open.href; });
            element.addEventListener("keydown", (event) => { if (event.key === "Enter") location.href = open.href; });
          }
          document.getElementById("empty")?.remove();
          games.append(element);
          return element;
        }

        function set(element, selector, value) { element.querySelector(selector).textContent = value; }

        // The clock's value now, in milliseconds, from its anchor.
        function clockValue(clock, now) {
          if (!clock.running) return clock.ms;
          const passed = Math.max(0, now - Date.parse(clock.at));
          return clock.countsDown ? Math.max(0, clock.ms - passed) : clock.ms + passed;
        }

        // As the server shows it (GameClock.display): counting down, seconds rounded up and tenths
        // under a minute (59.95 s left still shows 1:00).
        function clockDisplay(ms, countsDown) {
          const tenths = Math.ceil(ms / 100);
          if (countsDown && tenths < 600) return `0:${two(Math.floor(tenths / 10))}.${tenths % 10}`;
          const seconds = countsDown ? Math.ceil(ms / 1000) : Math.floor(ms / 1000);
          return `${Math.floor(seconds / 60)}:${two(seconds % 60)}`;
        }

        // Soccer: the match minute at which period `period` begins (0, 45, 90, 105 with the usual rules).
        function periodOffset(period, rules) {
          return Math.min(period - 1, rules.periods) * rules.periodMinutes +
            Math.max(0, period - 1 - rules.periods) * rules.overtimeMinutes;
        }

        // Soccer's match minute: 53', or in stoppage time 45+2'.
        function matchMinute(ms, period, rules) {
          const minute = Math.floor(ms / 60000) + 1;
          const end = periodOffset(period + 1, rules);
          return minute > end ? `${end}+${minute - end}'` : `${minute}'`;
        }

        function drawClock(element, now) {
          const anchor = element.anchor;
          const clock = element.querySelector(".clock");
          if (!anchor) return;
          const ms = clockValue(anchor.clock, now);
          if (anchor.sport === "soccer") {
            const minute = matchMinute(ms, anchor.period, anchor.rules);
            const exact = clockDisplay(ms, false);
            if (clock.dataset.shown === minute + exact) return;
            clock.dataset.shown = minute + exact;
            const time = el("span", "exact", exact);
            time.setAttribute("aria-hidden", "true");
            clock.replaceChildren(minute, time);
          } else {
            const text = clockDisplay(ms, anchor.clock.countsDown);
            if (clock.textContent !== text) clock.textContent = text;
          }
        }

        // Every running clock, ten times a second (tenths show under a minute); nothing else is redrawn.
        setInterval(() => {
          const now = Date.now();
          for (const element of games.querySelectorAll('.card[data-clock="running"]')) drawClock(element, now);
        }, 100);

        function downAndDistance(situation, codes) {
          let text = `${codes[situation.possession]} ball`;
          if (situation.down == null) return text;
          const other = situation.possession === "home" ? "away" : "home";
          const toGo = situation.yardLine + situation.distance >= 100 ? "Goal" : situation.distance;
          const spot = situation.yardLine === 50 ? "the 50"
            : situation.yardLine < 50 ? `${codes[situation.possession]} ${situation.yardLine}`
            : `${codes[other]} ${100 - situation.yardLine}`;
          return `${text} · ${ordinals[situation.down - 1] ?? situation.down} & ${toGo} at ${spot}`;
        }

        function marks(state, side, live) {
          const items = [];
          const reds = state.redCards?.[side] ?? 0;
          if (reds > 0) {
            for (let i = 0; i < reds; i++) {
              const red = el("span", "red-card");
              red.setAttribute("aria-hidden", "true");
              items.push(red);
            }
            items.push(el("span", "sr", `${reds} red card${reds === 1 ? "" : "s"}`));
          }
          if (live && state.situation?.possession === side) {
            const ball = el("span", "ball");
            ball.setAttribute("aria-hidden", "true");
            items.push(ball, el("span", "sr", "has the ball"));
          }
          return items;
        }

        // Short column heads: 1H for "1st Half", 1 for hockey's "1st" and baseball's innings.
        function shortLabel(label) {
          const half = /^(\d+)(st|nd|rd|th) Half$/.exec(label);
          if (half) return `${half[1]}H`;
          const ordinal = /^(\d+)(st|nd|rd|th)$/.exec(label);
          return ordinal ? ordinal[1] : label;
        }

        function lineScore(state, codes, order) {
          const periods = state.periods ?? [];
          if (!periods.length) return [];
          const regulation = state.sport === "baseball" ? 9 : state.rules?.periods ?? periods.length;
          const columns = periods.slice();
          // Baseball: the home half of an inning not yet played is blank, as on a scoreboard.
          const last = columns[columns.length - 1];
          if (state.sport === "baseball" && state.status !== "closed" && state.half === "top" && last.home === 0) {
            columns[columns.length - 1] = { ...last, home: "" };
          }
          // Periods still to play, blank, as the rules name them.
          for (let n = periods.length + 1; n <= regulation; n++) {
            const ordinal = ["1st", "2nd", "3rd"][n - 1] ?? `${n}th`;
            const label = state.sport === "baseball" ? String(n) : regulation === 2 ? `${ordinal} Half`
              : regulation === 4 && ["basketball", "football"].includes(state.sport) ? `Q${n}` : ordinal;
            columns.push({ label, home: "", away: "" });
          }
          const table = el("table", "lines");
          table.append(el("caption", "sr", "Line score"));
          const head = el("tr");
          const corner = el("th", null);
          corner.scope = "col";
          corner.append(el("span", "sr", "Team"));
          head.append(corner);
          for (const column of columns) {
            const th = el("th");
            th.scope = "col";
            const label = column.label;
            const short = shortLabel(label);
            if (short === label) th.textContent = label;
            else th.append(Object.assign(el("abbr", null, short), { title: label }));
            head.append(th);
          }
          const shootout = state.shootout;
          if (shootout) {
            const th = el("th", "apart");
            th.scope = "col";
            const [short, title] = state.sport === "soccer" ? ["Pens", "Penalty shoot-out"] : ["SO", "Shoot-out"];
            th.append(Object.assign(el("abbr", null, short), { title }));
            head.append(th);
          }
          const total = el("th", "apart total");
          total.scope = "col";
          total.append(Object.assign(el("abbr", null, state.sport === "baseball" ? "R" : "T"), { title: state.sport === "baseball" ? "Runs" : "Total" }));
          head.append(total);
          const thead = el("thead");
          thead.append(head);
          const body = el("tbody");
          for (const side of order) {
            const row = el("tr", side);
            const name = el("th", null, codes[side]);
            name.scope = "row";
            row.append(name);
            for (const column of columns) row.append(el("td", null, String(column[side])));
            if (shootout) row.append(el("td", "apart", String(shootout[side])));
            row.append(el("td", "apart total", String(state[`${side}Score`])));
            body.append(row);
          }
          table.append(thead, body);
          return [table];
        }

        function show(state) {
          // A state may arrive twice, or an older one after a newer (a reconnect): the newest wins.
          if ((versions.get(state.gameId) ?? -1) > state.version) return;
          versions.set(state.gameId, state.version);
          const element = card(state.gameId);
          const sport = state.sport ?? "baseball";
          const live = ["inprogress", "delayed", "suspended"].includes(state.status);
          element.dataset.sport = sport;
          element.dataset.status = state.status;
          element.dataset.group = groups[state.status] ?? "scheduled";
          element.classList.toggle("live", state.status === "inprogress");
          element.classList.toggle("delayed", state.status === "delayed");
          element.classList.toggle("suspended", state.status === "suspended");
          const order = sideOrder(sport);
          const codes = { home: state.home.code, away: state.away.code };
          element.querySelector(".top").after(...order.map((side) => element.querySelector(`.team.${side}`)));
          for (const side of ["away", "home"]) {
            const team = state[side];
            set(element, `.${side} .code`, team.code);
            set(element, `.${side} .name`, team.name);
            set(element, `.${side} .runs`, state[`${side}Score`]);
            element.querySelector(`.${side} .marks`).replaceChildren(...marks(state, side, live));
          }
          set(element, ".status-word", words[state.status] ?? state.status);
          set(element, ".start", new Date(state.startsAt).toLocaleString([], { weekday: "short", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }));
          let note = "";
          if (sport === "baseball") {
            set(element, ".period", state.inning);
            set(element, ".outs", state.inningNumber === 0 ? "" : `${state.outs} out${state.outs === 1 ? "" : "s"}`);
            for (const base of ["first", "second", "third"]) {
              element.querySelector(`.diamond .${base}`).classList.toggle("on", Boolean(state.bases?.[base]));
            }
          } else {
            set(element, ".period", state.status === "scheduled" ? "" : state.period ?? "");
            set(element, ".outs", "");
            if (state.shootout && state.status !== "closed") {
              const [first, second] = order;
              note = `${state.sport === "soccer" ? "Penalties" : "Shoot-out"} ${codes[first]} ${state.shootout[first]}–${state.shootout[second]} ${codes[second]}`;
            } else if (sport === "football" && live && state.situation) {
              note = downAndDistance(state.situation, codes);
            }
          }
          set(element, ".note", note);
          const clock = element.querySelector(".clock");
          const clockShown = sport !== "baseball" && live && state.clock != null && !state.periodEnded;
          element.anchor = clockShown ? { clock: state.clock, sport, period: state.periodNumber, rules: state.rules } : null;
          element.dataset.clock = clockShown ? (state.clock.running ? "running" : "stopped") : "none";
          clock.hidden = !clockShown;
          clock.dataset.shown = "";
          if (clockShown) drawClock(element, Date.now()); else clock.textContent = "";
          element.querySelector(".lines-wrap").replaceChildren(...lineScore(state, codes, order));
          applyFilter(element);
          if (pageGame !== null) {
            drawPlays(state, codes);
            // Pushes are planned as the change is projected: look a moment later.
            clearTimeout(refreshTimer);
            refreshTimer = setTimeout(() => drawLockScreen(state).catch(() => {}), 500);
          }
        }

        // The game page's preview of the Live Activity as the lock screen shows it: the content state of
        // the newest push planned for the game (what the phone was last sent), the teams from the game.
        async function drawLockScreen(state) {
          const response = await fetch(`/v1/games/${encodeURIComponent(pageGame)}/pushes?limit=5000`);
          if (!response.ok) return;
          const data = await response.json();
          const pushes = (data.pushes ?? []).filter((p) => p.payload?.aps?.["content-state"]?.status);
          const box = document.getElementById("lock");
          const caption = document.getElementById("lock-caption");
          box.hidden = false;
          caption.hidden = false;
          if (!pushes.length) {
            box.replaceChildren(el("div", "lock-mid", "No Live Activity push yet"));
            caption.textContent = "The lock screen shows the state an activity started with until its first push.";
            return;
          }
          const push = pushes.reduce((a, b) => (b.timestamp >= a.timestamp ? b : a));
          const aps = push.payload.aps;
          const s = aps["content-state"].status;
          const top = el("div", "lock-top");
          top.append(el("span", null, "ScoreFeed"), el("span", null, words[s.status] ?? s.status));
          const row = el("div", "lock-row");
          const middle = s.sport && s.sport !== "baseball" ? (s.inning || "") : `${s.inning}${s.status === "inprogress" ? ` · ${s.outs} out${s.outs === 1 ? "" : "s"}` : ""}`;
          const [first, second] = sideOrder(state.sport ?? "baseball");
          row.append(el("span", "lock-code", state[first].code), el("span", "lock-score", s[`${first}Score`]),
                     el("span", "lock-mid", middle), el("span", "lock-score", s[`${second}Score`]),
                     el("span", "lock-code", state[second].code));
          box.replaceChildren(top, row, el("div", "lock-alert", aps.alert?.title ?? ""));
          const at = new Date(push.route === "android" ? push.timestamp : push.timestamp * 1000);
          caption.textContent = `As the newest push (${push.event}, priority ${push.priority}, ${at.toLocaleTimeString()}) left it: ${push.state}.`;
        }

        // The game page's scoring plays, in order: the period, the clock, who, what, the score after it.
        function drawPlays(state, codes) {
          const list = document.getElementById("plays");
          list.hidden = false;
          const plays = state.scoring ?? [];
          if (!plays.length) { list.replaceChildren(el("li", "empty", "No scoring plays yet.")); return; }
          const [first, second] = sideOrder(state.sport ?? "baseball");
          list.replaceChildren(...plays.map((play) => {
            const item = el("li");
            const period = state.periods?.[play.period - 1]?.label ?? String(play.period);
            const who = play.side ? `${codes[play.side]}${play.player ? " " + play.player : ""}` : "correction";
            item.append(el("span", "when", period), el("span", "what", play.clock ?? ""),
                        el("span", "who", `${who} · ${play.kind}`),
                        el("span", "score", `${codes[first]} ${play[`${first}Score`]}–${play[`${second}Score`]} ${codes[second]}`));
            return item;
          }));
        }

        function showPush(gameId, push, ended) {
          const element = card(gameId);
          const stale = Boolean(push && push.staleDate && !ended && Date.now() / 1000 > push.staleDate);
          element.querySelector(".stale").hidden = !stale;
          element.dataset.stale = stale;
          if (!push) return;
          const at = new Date(push.timestamp * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
          set(element, ".push", `last push ${at}: ${push.event}, priority ${push.priority}` +
            (push.alert ? `, “${push.alert}”` : "") + ` — ${push.state}`);
        }

        function applyFilter(element) { element.hidden = filter !== "all" && element.dataset.group !== filter; }

        // Loads answer in any order: only the newest one asked for is drawn (a day picked while a
        // refresh of the day before was on its way shows the picked day, not the refresh's).
        let loads = 0;
        let requested = null;
        async function load(day) {
          const mine = ++loads;
          requested = day ?? null;
          const query = `?tz=${encodeURIComponent(zone)}` + (day ? `&date=${encodeURIComponent(day)}` : "");
          const response = await fetch("/v1/scoreboard" + query);
          if (!response.ok || mine !== loads) return;
          const board = await response.json();
          if (mine !== loads) return;
          currentDay = board.date;
          daySelect.replaceChildren(...board.days.map((d) => {
            const option = el("option", null, `${dayLabel(d.date)} (${d.games})`);
            option.value = d.date;
            return option;
          }));
          daySelect.value = currentDay;
          document.getElementById("day-title").textContent = board.games.length ? dayLabel(currentDay) : "";
          games.replaceChildren();
          versions.clear();
          if (!board.games.length) games.append(el("p", "empty", "No games on this day."));
          for (const item of board.games) {
            show(item.game);
            showPush(item.game.gameId, item.latestPush, groups[item.game.status] === "final");
          }
        }

        // The newest pushes come with the day's one request: refresh it a moment after changes.
        function refreshSoon() {
          clearTimeout(refreshTimer);
          refreshTimer = setTimeout(() => load(requested ?? currentDay).catch(() => {}), 1000);
        }

        // A URL per day: /?day=YYYY-MM-DD (the viewer's day), kept in the history.
        daySelect.addEventListener("change", () => {
          history.pushState(null, "", `?day=${encodeURIComponent(daySelect.value)}`);
          load(daySelect.value).catch(() => {});
        });
        window.addEventListener("popstate", () => load(askedDay()).catch(() => {}));
        for (const button of document.querySelectorAll(".filters button")) {
          button.addEventListener("click", () => {
            filter = button.dataset.filter;
            for (const other of document.querySelectorAll(".filters button")) other.setAttribute("aria-pressed", other === button);
            games.querySelectorAll(".card").forEach(applyFilter);
          });
        }

        // The browser reconnects by itself (sending Last-Event-ID) after a dropped connection, but gives
        // up on an error answer (the server restarting): then start a new stream after a pause.
        function listen(path) {
          const stream = new EventSource(path);
          stream.addEventListener("state", (event) => {
            const state = JSON.parse(event.data);
            if (pageGame !== null) { if (state.gameId === pageGame) show(state); return; }
            if (currentDay === null || dayOf(state.startsAt) === currentDay) show(state);
            refreshSoon();
          });
          stream.onopen = () => { connection.textContent = "live"; connection.classList.add("live"); };
          stream.onerror = () => {
            connection.textContent = "reconnecting…";
            connection.classList.remove("live");
            if (stream.readyState === EventSource.CLOSED) setTimeout(() => listen(path), 3000);
          };
        }
        // /games/{id}: one game as a fan looks at it, live from its own stream.
        async function openGame() {
          document.body.classList.add("game-page");
          document.title = `ScoreFeed: ${pageGame}`;
          const operator = document.getElementById("operator-link");
          operator.href = `/games/${encodeURIComponent(pageGame)}/operator`;
          operator.hidden = false;
          const response = await fetch(`/v1/games/${encodeURIComponent(pageGame)}`);
          if (!response.ok) { document.getElementById("empty").textContent = `No game "${pageGame}".`; return; }
          const state = await response.json();
          currentDay = dayOf(state.startsAt);
          document.getElementById("day-title").textContent = dayLabel(currentDay);
          show(state);
        }
        if (pageGame !== null) {
          openGame().catch(() => {}).finally(() => listen(`/v1/games/${encodeURIComponent(pageGame)}/stream`));
        } else {
          load(askedDay()).catch(() => {}).finally(() => listen("/v1/stream"));
        }
        """#
}
