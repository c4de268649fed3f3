import Hummingbird

/// `GET /`: the scoreboard, one self-contained page (no CDN, no external file): the games of a day
/// (a day picker and a status filter) as cards showing what the lock screen shows, filled by ONE
/// request (`/v1/scoreboard`) and kept current by the live stream `/v1/stream`; a card opens the
/// game's push timeline (`/v1/games/{id}/pushes`).
enum Scoreboard {
    static func page(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-cache",
                .contentSecurityPolicy: "default-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    static let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>ScoreFeed scoreboard</title>
        <style>
          :root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", sans-serif;
                  --line: color-mix(in srgb, CanvasText 18%, transparent); --dim: color-mix(in srgb, CanvasText 60%, Canvas);
                  --live: #1f9d55; --warn: #d97706; --accent: #2563eb; }
          * { box-sizing: border-box; }
          body { margin: 0; background: Canvas; color: CanvasText; }
          header { position: sticky; top: 0; z-index: 2; background: Canvas; border-bottom: 1px solid var(--line);
                   padding: .7rem 1rem; display: flex; flex-wrap: wrap; align-items: center; gap: .6rem 1rem; }
          h1 { font-size: 1.15rem; margin: 0; letter-spacing: -.01em; }
          #connection { font-size: .8rem; color: var(--dim); margin-left: auto; }
          #connection.live::before { content: "● "; color: var(--live); }
          select, button { font: inherit; font-size: .9rem; color: inherit; background: Canvas;
                           border: 1px solid var(--line); border-radius: .45rem; padding: .3rem .6rem; }
          .filters { display: flex; gap: .3rem; }
          .filters button[aria-pressed="true"] { background: var(--accent); border-color: var(--accent); color: white; }
          main { padding: 1rem; }
          #day-title { font-size: .95rem; font-weight: 600; margin: 0 0 .7rem; color: var(--dim); }
          #games { display: grid; grid-template-columns: repeat(auto-fill, minmax(17.5rem, 1fr)); gap: .8rem; }
          .card { border: 1px solid var(--line); border-radius: .8rem; padding: .75rem .85rem; cursor: pointer;
                  display: grid; gap: .45rem; background: color-mix(in srgb, CanvasText 2%, Canvas); }
          .card:hover { border-color: var(--accent); }
          .card[hidden] { display: none; }
          .card.live { border-left: 4px solid var(--live); }
          .top { display: flex; align-items: center; gap: .5rem; font-size: .78rem; color: var(--dim); }
          .status-word { font-weight: 700; text-transform: uppercase; letter-spacing: .06em; }
          .card.live .status-word { color: var(--live); }
          .card.delayed .status-word, .card.suspended .status-word { color: var(--warn); }
          .start { margin-left: auto; }
          .stale { background: var(--warn); color: white; border-radius: .3rem; padding: 0 .35rem; font-weight: 600; }
          .team { display: grid; grid-template-columns: 3.4rem 1fr auto; align-items: baseline; gap: .5rem; }
          .code { font-weight: 800; letter-spacing: .02em; }
          .name { font-size: .85rem; color: var(--dim); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
          .runs { font-size: 1.6rem; font-weight: 700; font-variant-numeric: tabular-nums; min-width: 2ch; text-align: right; }
          .situation { display: flex; align-items: center; gap: .7rem; font-size: .85rem; }
          .diamond { width: 2.6rem; height: 2.6rem; flex: none; }
          .diamond .base { fill: none; stroke: var(--dim); stroke-width: 1.5; }
          .diamond .base.on { fill: var(--warn); stroke: var(--warn); }
          .outs { color: var(--dim); }
          .push { font-size: .75rem; color: var(--dim); border-top: 1px dashed var(--line); padding-top: .4rem; }
          .empty { color: var(--dim); }
          #detail { position: fixed; inset: 0; z-index: 3; background: color-mix(in srgb, Canvas 70%, transparent);
                    display: flex; justify-content: flex-end; }
          #detail[hidden] { display: none; }
          #detail > section { width: min(44rem, 100%); height: 100%; overflow: auto; background: Canvas;
                              border-left: 1px solid var(--line); padding: 1rem; box-shadow: -8px 0 24px #0002; }
          #detail h2 { font-size: 1.05rem; margin: 0 0 .6rem; }
          #detail table { width: 100%; border-collapse: collapse; font-size: .82rem; }
          #detail th, #detail td { text-align: left; padding: .3rem .4rem; border-bottom: 1px solid var(--line); }
          #detail td.p10 { color: var(--warn); font-weight: 700; }
          .budgets { display: flex; flex-wrap: wrap; gap: .4rem; margin: 0 0 .8rem; padding: 0; list-style: none; }
          .budgets li { border: 1px solid var(--line); border-radius: .4rem; padding: .2rem .5rem; font-size: .8rem; }
          .close { float: right; }
        </style>
        </head>
        <body>
        <header>
          <h1>ScoreFeed</h1>
          <label>Day <select id="day" aria-label="day"></select></label>
          <div class="filters" role="group" aria-label="status">
            <button data-filter="all" aria-pressed="true">All</button>
            <button data-filter="live" aria-pressed="false">Live</button>
            <button data-filter="scheduled" aria-pressed="false">Scheduled</button>
            <button data-filter="final" aria-pressed="false">Final</button>
          </div>
          <span id="connection">connecting…</span>
        </header>
        <main>
          <p id="day-title"></p>
          <div id="games"><p class="empty" id="empty">No games yet.</p></div>
        </main>
        <div id="detail" hidden><section aria-live="polite"></section></div>
        <script>
        "use strict";
        const games = document.getElementById("games");
        const daySelect = document.getElementById("day");
        const connection = document.getElementById("connection");
        const detail = document.getElementById("detail");
        const versions = new Map();
        const words = { scheduled: "Scheduled", inprogress: "Live", delayed: "Delayed", suspended: "Suspended",
                        closed: "Final", cancelled: "Cancelled", postponed: "Postponed" };
        const groups = { scheduled: "scheduled", inprogress: "live", delayed: "live", suspended: "live",
                         closed: "final", cancelled: "final", postponed: "final" };
        let currentDay = null;
        let filter = "all";
        let refreshTimer = null;

        const el = (tag, className, textContent) =>
          Object.assign(document.createElement(tag), className ? { className } : {}, textContent != null ? { textContent } : {});
        const dayOf = (iso) => iso.slice(0, 10);
        const dayLabel = (day) => new Date(day + "T12:00:00Z").toLocaleDateString([], { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" });

        function diamond() {
          const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
          svg.setAttribute("viewBox", "0 0 40 40");
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
          row.append(el("span", "code"), el("span", "name"), el("span", "runs"));
          return row;
        }

        function card(gameId) {
          let element = games.querySelector(`[data-game="${CSS.escape(gameId)}"]`);
          if (element) return element;
          element = el("article", "card");
          element.dataset.game = gameId;
          element.tabIndex = 0;
          const top = el("div", "top");
          top.append(el("span", "status-word"), el("span", "stale", "stale"), el("span", "start"));
          const situation = el("div", "situation");
          situation.append(diamond(), el("span", "inning"), el("span", "outs"));
          element.append(top, teamRow("away"), teamRow("home"), situation, el("div", "push", "no push yet"));
          element.addEventListener("click", () => openDetail(gameId));
          element.addEventListener("keydown", (event) => { if (event.key === "Enter") openDetail(gameId); });
          document.getElementById("empty")?.remove();
          games.append(element);
          return element;
        }

        function set(element, selector, value) { element.querySelector(selector).textContent = value; }

        function show(state) {
          // A state may arrive twice, or an older one after a newer (a reconnect): the newest wins.
          if ((versions.get(state.gameId) ?? -1) > state.version) return;
          versions.set(state.gameId, state.version);
          const element = card(state.gameId);
          element.dataset.status = state.status;
          element.dataset.group = groups[state.status] ?? "scheduled";
          element.classList.toggle("live", state.status === "inprogress");
          element.classList.toggle("delayed", state.status === "delayed");
          element.classList.toggle("suspended", state.status === "suspended");
          for (const side of ["away", "home"]) {
            const team = state[side];
            set(element, `.${side} .code`, team.code);
            set(element, `.${side} .name`, team.name);
            set(element, `.${side} .runs`, state[`${side}Score`]);
          }
          set(element, ".status-word", words[state.status] ?? state.status);
          set(element, ".start", new Date(state.startsAt).toLocaleString([], { weekday: "short", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }));
          set(element, ".inning", state.inning);
          set(element, ".outs", state.inningNumber === 0 ? "" : `${state.outs} out${state.outs === 1 ? "" : "s"}`);
          for (const base of ["first", "second", "third"]) {
            element.querySelector(`.diamond .${base}`).classList.toggle("on", Boolean(state.bases?.[base]));
          }
          applyFilter(element);
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

        async function load(day) {
          const response = await fetch("/v1/scoreboard" + (day ? `?date=${encodeURIComponent(day)}` : ""));
          if (!response.ok) return;
          const board = await response.json();
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
          refreshTimer = setTimeout(() => load(currentDay).catch(() => {}), 1000);
        }

        async function openDetail(gameId) {
          const section = detail.querySelector("section");
          section.replaceChildren(el("p", "empty", "loading…"));
          detail.hidden = false;
          const response = await fetch(`/v1/games/${encodeURIComponent(gameId)}/pushes?limit=5000`);
          if (!response.ok) { section.replaceChildren(el("p", "empty", "no pushes")); return; }
          const data = await response.json();
          const close = el("button", "close", "Close");
          close.addEventListener("click", () => { detail.hidden = true; });
          const title = el("h2", null, `${gameId}: Live Activity pushes`);
          const summary = el("p", "empty", `${data.counts.planned} planned, ${data.counts.sent} sent, ${data.counts.failed} failed`);
          const budgets = el("ul", "budgets");
          for (const a of data.activities ?? []) {
            budgets.append(el("li", "budget", `activity ${a.activityId} ${a.pushToken}: ${a.highPriorityLastHour}/${a.hourlyBudget} priority-10 in its last hour`));
          }
          const table = el("table", "timeline");
          const head = el("tr");
          for (const h of ["time", "activity", "event", "priority", "alert", "outcome"]) head.append(el("th", null, h));
          table.append(head);
          for (const p of data.pushes) {
            const row = el("tr");
            const alert = p.payload?.aps?.alert?.title ?? "";
            const outcome = p.state + (p.lastStatus ? ` (${p.lastStatus}${p.lastReason ? " " + p.lastReason : ""})` : "");
            row.append(el("td", null, new Date(p.route === "android" ? p.timestamp : p.timestamp * 1000).toLocaleTimeString()), el("td", null, p.activityId),
                       el("td", null, p.event), el("td", p.priority === 10 ? "p10" : "", p.priority), el("td", null, alert),
                       el("td", "outcome", outcome));
            table.append(row);
          }
          section.replaceChildren(close, title, summary, budgets, table);
        }
        detail.addEventListener("click", (event) => { if (event.target === detail) detail.hidden = true; });
        document.addEventListener("keydown", (event) => { if (event.key === "Escape") detail.hidden = true; });

        daySelect.addEventListener("change", () => load(daySelect.value).catch(() => {}));
        for (const button of document.querySelectorAll(".filters button")) {
          button.addEventListener("click", () => {
            filter = button.dataset.filter;
            for (const other of document.querySelectorAll(".filters button")) other.setAttribute("aria-pressed", other === button);
            games.querySelectorAll(".card").forEach(applyFilter);
          });
        }

        // The browser reconnects by itself (sending Last-Event-ID) after a dropped connection, but gives
        // up on an error answer (the server restarting): then start a new stream after a pause.
        function listen() {
          const stream = new EventSource("/v1/stream");
          stream.addEventListener("state", (event) => {
            const state = JSON.parse(event.data);
            if (currentDay === null || dayOf(state.startsAt) === currentDay) show(state);
            refreshSoon();
          });
          stream.onopen = () => { connection.textContent = "live"; connection.classList.add("live"); };
          stream.onerror = () => {
            connection.textContent = "reconnecting…";
            connection.classList.remove("live");
            if (stream.readyState === EventSource.CLOSED) setTimeout(listen, 3000);
          };
        }
        load(null).catch(() => {}).finally(listen);
        </script>
        </body>
        </html>
        """
}
