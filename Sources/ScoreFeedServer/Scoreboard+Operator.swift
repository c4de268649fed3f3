import Hummingbird

extension Scoreboard {
    /// `GET /games/{id}/operator`: the operator view of one game, self-contained like the board. It
    /// asks for an app key (kept in the tab's `sessionStorage`, sent as `Authorization: Bearer`, never
    /// in the address) and shows that app's targets of the game from `GET /v1/games/{id}/targets`,
    /// grouped by route (APNs tokens, broadcast channels, push-to-start, FCM for iOS, Android), each
    /// with its status, budget used in the last hour, last answer and pushes; removed ones marked.
    static func operatorPage(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        htmlResponse(operatorHTML)
    }

    static let operatorHTML = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>ScoreFeed operator</title>
        <style>
          :root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", sans-serif;
                  --line: color-mix(in srgb, CanvasText 18%, transparent); --dim: color-mix(in srgb, CanvasText 60%, Canvas);
                  --live: #1f9d55; --warn: #d97706; --bad: #dc2626; --accent: #2563eb; }
          * { box-sizing: border-box; }
          html { scrollbar-gutter: stable; }
          body { margin: 0; background: Canvas; color: CanvasText; }
          header { position: sticky; top: 0; z-index: 2; background: Canvas; border-bottom: 1px solid var(--line);
                   padding: .7rem 1rem; display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1rem; }
          h1 { font-size: 1.15rem; margin: 0; }
          header a { color: var(--accent); font-size: .9rem; }
          #who { font-size: .85rem; color: var(--dim); margin-left: auto; }
          button, input { font: inherit; font-size: .9rem; color: inherit; background: Canvas;
                          border: 1px solid var(--line); border-radius: .45rem; padding: .3rem .6rem; }
          main { padding: 1rem; max-width: 80rem; }
          #game { font-weight: 600; margin: 0 0 .3rem; overflow-wrap: anywhere; }
          #summary { color: var(--dim); font-size: .9rem; margin: 0 0 1rem; }
          form { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin: 0 0 1rem; }
          form label { display: grid; gap: .2rem; font-size: .85rem; flex: 1 1 14rem; max-width: 26rem; }
          form input { width: 100%; }
          form[hidden], [hidden] { display: none !important; }
          .error { color: var(--bad); font-size: .85rem; flex-basis: 100%; margin: 0; }
          .group { margin: 0 0 1.2rem; }
          .group h2 { font-size: 1rem; margin: 0 0 .5rem; }
          .group h2 .n { color: var(--dim); font-weight: 400; }
          .targets { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 19rem), 1fr)); gap: .6rem;
                     margin: 0; padding: 0; list-style: none; }
          .target { border: 1px solid var(--line); border-left: 4px solid var(--live); border-radius: .6rem;
                    padding: .55rem .7rem; display: grid; align-content: start; gap: .3rem; font-size: .85rem; min-width: 0;
                    background: color-mix(in srgb, CanvasText 2%, Canvas); }
          .target.ended { border-left-color: var(--dim); }
          .target.removed { border-left-color: var(--bad); border-style: dashed; opacity: .8; }
          .target.removed .token { text-decoration: line-through; }
          .top { display: flex; flex-wrap: wrap; align-items: baseline; gap: .3rem .5rem; }
          .token { font-family: ui-monospace, "SF Mono", Menlo, monospace; font-weight: 700; overflow-wrap: anywhere; }
          .badge { font-size: .7rem; font-weight: 700; text-transform: uppercase; letter-spacing: .05em; border-radius: .3rem;
                   padding: .05rem .35rem; color: white; background: var(--live); }
          .ended .badge { background: var(--dim); }
          .removed .badge { background: var(--bad); }
          .tag { font-size: .75rem; color: var(--dim); border: 1px solid var(--line); border-radius: .3rem; padding: 0 .3rem; }
          .removed-note { color: var(--bad); font-weight: 600; overflow-wrap: anywhere; }
          .row { display: grid; grid-template-columns: 5.8rem minmax(0, 1fr); gap: .5rem; align-items: baseline; }
          .row .label { color: var(--dim); }
          .row .value { overflow-wrap: anywhere; }
          .bar { display: block; width: min(100%, 9rem); height: .45rem; margin-top: .2rem; border-radius: .3rem;
                 background: var(--line); overflow: hidden; }
          .bar span { display: block; height: 100%; background: var(--accent); }
          .bar.full span { background: var(--warn); }
          .answer.failed { color: var(--bad); font-weight: 600; }
          .none { color: var(--dim); font-size: .85rem; margin: 0; }
        </style>
        </head>
        <body>
        <header>
          <h1>ScoreFeed operator</h1>
          <a id="game-link" href="/">Game page</a>
          <span id="who"></span>
          <button id="forget" type="button" hidden>Forget key</button>
        </header>
        <main>
          <p id="game"></p>
          <form id="key-form" hidden>
            <label>App key (one of SCOREFEED_APP_KEYS; kept in this tab only)
              <input id="key" type="password" autocomplete="off" required></label>
            <button type="submit">Show targets</button>
            <p class="error" id="key-error"></p>
          </form>
          <p id="summary"></p>
          <div id="groups"></div>
        </main>
        <script>
        \(operatorScript)
        </script>
        </body>
        </html>
        """

    /// The operator page's script: the key from the form into `sessionStorage`, the targets fetched
    /// with it every 5 s and drawn grouped by route.
    static let operatorScript = #"""
        "use strict";
        const gameId = decodeURIComponent(location.pathname.slice("/games/".length, -"/operator".length));
        const storageKey = "scorefeed-app-key";
        const form = document.getElementById("key-form");
        const keyError = document.getElementById("key-error");
        const groups = document.getElementById("groups");
        const routes = [["apns", "APNs tokens"], ["channel", "Broadcast channels"], ["push-to-start", "Push-to-start"],
                        ["fcm", "FCM (iOS)"], ["android", "Android followers"], ["topic", "Android topic"]];
        const words = { scheduled: "Scheduled", inprogress: "Live", delayed: "Delayed", suspended: "Suspended",
                        closed: "Final", cancelled: "Cancelled", postponed: "Postponed" };
        const el = (tag, className, textContent) =>
          Object.assign(document.createElement(tag), className ? { className } : {}, textContent != null ? { textContent } : {});
        const time = (iso) => iso ? new Date(iso).toLocaleString([], { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" }) : "";
        let timer = null;
        document.getElementById("game-link").href = `/games/${encodeURIComponent(gameId)}`;
        document.title = `ScoreFeed operator: ${gameId}`;

        function askForKey(message) {
          sessionStorage.removeItem(storageKey);
          clearInterval(timer);
          timer = null;
          form.hidden = false;
          keyError.textContent = message ?? "";
          document.getElementById("forget").hidden = true;
          document.getElementById("who").textContent = "";
          document.getElementById("summary").textContent = "";
          groups.replaceChildren();
        }

        function row(label, ...content) {
          const line = el("div", "row");
          const value = el("div", "value");
          value.append(...content);
          line.append(el("span", "label", label), value);
          return line;
        }

        function card(target) {
          const item = el("li", `target ${target.status}`);
          item.dataset.route = target.route;
          item.dataset.status = target.status;
          const top = el("div", "top");
          top.append(el("span", "badge", target.status), el("span", "token", target.target || "(none)"));
          if (target.route === "push-to-start" || target.route === "fcm") top.append(el("span", "tag", target.via === "fcm" ? "via FCM" : "via APNs"));
          if (target.environment && target.environment !== "production") top.append(el("span", "tag", target.environment));
          if (target.frequentUpdates) top.append(el("span", "tag", "frequent updates"));
          item.append(top);
          if (target.removed) {
            const why = target.removed.reason ?? "no longer reached";
            item.append(el("div", "removed-note", `Removed: ${why}${target.removed.at ? " · " + time(target.removed.at) : ""}`));
          } else if (target.status === "ended") {
            item.append(el("div", "ended-note", `Ended ${time(target.endedAt)}`));
          }
          const budget = target.budget;
          const bar = el("span", budget.used >= budget.limit ? "bar full" : "bar");
          const fill = el("span");
          fill.style.width = `${Math.min(100, (100 * budget.used) / Math.max(1, budget.limit))}%`;
          bar.append(fill);
          bar.setAttribute("aria-hidden", "true");
          item.append(row("Budget", el("span", "budget", `${budget.used} / ${budget.limit} ${budget.counts} in the last hour`), bar));
          const answer = target.lastAnswer;
          const answerText = answer
            ? `${answer.status ?? "no status"}${answer.reason ? " " + answer.reason : ""} (${answer.outcome})${answer.at ? " · " + time(answer.at) : ""}`
            : "none yet";
          const failed = answer && answer.status !== 200 && answer.outcome !== "sent";
          item.append(row("Last answer", el("span", failed ? "answer failed" : "answer", answerText)));
          const p = target.pushes;
          const counts = `${p.sent} sent · ${p.pending} waiting · ${p.failed} failed` + (p.superseded ? ` · ${p.superseded} superseded` : "");
          item.append(row(target.route === "push-to-start" ? "Start" : "Pushes", el("span", "pushes", counts)));
          item.append(row("Registered", el("span", null, time(target.registeredAt))));
          return item;
        }

        function draw(data) {
          document.getElementById("who").textContent = `app ${data.app}`;
          const removed = data.targets.filter((t) => t.status === "removed").length;
          document.getElementById("summary").textContent =
            `${data.targets.length} target${data.targets.length === 1 ? "" : "s"}, ${removed} removed`;
          groups.replaceChildren(...routes.map(([route, title]) => {
            const section = el("section", "group");
            section.dataset.route = route;
            const heading = el("h2", null, `${title} `);
            const mine = data.targets.filter((t) => t.route === route);
            heading.append(el("span", "n", `(${mine.length})`));
            section.append(heading);
            if (!mine.length) { section.append(el("p", "none", "None.")); return section; }
            const list = el("ul", "targets");
            list.append(...mine.map(card));
            section.append(list);
            return section;
          }));
        }

        async function load() {
          const key = sessionStorage.getItem(storageKey);
          if (!key) { askForKey(); return; }
          const response = await fetch(`/v1/games/${encodeURIComponent(gameId)}/targets`, {
            headers: { Authorization: `Bearer ${key}` }, cache: "no-store", referrerPolicy: "no-referrer",
          });
          if (response.status === 401 || response.status === 403) {
            askForKey(response.status === 403 ? "That key is not an app key." : "An app key is needed.");
            return;
          }
          if (!response.ok) {
            const body = await response.json().catch(() => ({}));
            groups.replaceChildren(el("p", "none", body.error?.message ?? `The server answered ${response.status}.`));
            return;
          }
          form.hidden = true;
          document.getElementById("forget").hidden = false;
          draw(await response.json());
        }

        async function drawGame() {
          const response = await fetch(`/v1/games/${encodeURIComponent(gameId)}`);
          if (!response.ok) { document.getElementById("game").textContent = gameId; return; }
          const s = await response.json();
          document.getElementById("game").textContent =
            `${gameId}: ${s.away.code} ${s.awayScore} – ${s.homeScore} ${s.home.code} · ${words[s.status] ?? s.status}`;
        }

        function start() {
          load().catch(() => {});
          if (timer === null) timer = setInterval(() => { load().catch(() => {}); drawGame().catch(() => {}); }, 5000);
        }

        form.addEventListener("submit", (event) => {
          event.preventDefault();
          const input = document.getElementById("key");
          sessionStorage.setItem(storageKey, input.value.trim());
          input.value = "";
          keyError.textContent = "";
          start();
        });
        document.getElementById("forget").addEventListener("click", () => askForKey());
        drawGame().catch(() => {});
        if (sessionStorage.getItem(storageKey)) start(); else askForKey();
        """#
}
