import Hummingbird

/// `GET /`: the scoreboard, one self-contained page (no CDN, no external file): a card per game,
/// filled from `/v1/games` and kept current by the live stream `/v1/stream`.
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
          :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
          body { margin: 0; padding: 1rem; background: Canvas; color: CanvasText; }
          header { display: flex; align-items: baseline; gap: 1rem; }
          h1 { font-size: 1.3rem; margin: 0 0 1rem; }
          #connection { font-size: .85rem; opacity: .7; }
          #games { display: grid; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); gap: .8rem; }
          .card { border: 1px solid color-mix(in srgb, CanvasText 25%, transparent); border-radius: .6rem;
                  padding: .8rem; }
          .card.live { border-color: #2a8; }
          .teams { display: flex; justify-content: space-between; font-weight: 600; }
          .score { font-size: 2rem; font-variant-numeric: tabular-nums; text-align: center; margin: .3rem 0; }
          .meta, .push { font-size: .85rem; display: flex; justify-content: space-between; gap: .5rem; }
          .push { opacity: .75; margin-top: .4rem; }
          .status { text-transform: uppercase; letter-spacing: .05em; }
          .empty { opacity: .7; }
        </style>
        </head>
        <body>
        <header><h1>ScoreFeed</h1><span id="connection">connecting…</span></header>
        <main id="games"><p class="empty" id="empty">No games yet.</p></main>
        <script>
        "use strict";
        const games = document.getElementById("games");
        const connection = document.getElementById("connection");
        const pushTimers = new Map();
        const versions = new Map();

        function text(element, selector, value) { element.querySelector(selector).textContent = value; }

        function card(gameId) {
          let element = games.querySelector(`[data-game="${CSS.escape(gameId)}"]`);
          if (element) return element;
          element = document.createElement("article");
          element.className = "card";
          element.dataset.game = gameId;
          element.innerHTML = `<div class="teams"><span class="away"></span><span class="home"></span></div>
            <div class="score"></div>
            <div class="meta"><span class="inning"></span><span class="outs"></span><span class="status"></span></div>
            <div class="push">last push: <span class="last-push">none</span></div>`;
          document.getElementById("empty")?.remove();
          games.append(element);
          return element;
        }

        function show(state) {
          // A state may arrive twice, or an older one after a newer (a reconnect): the newest wins.
          if ((versions.get(state.gameId) ?? -1) > state.version) return;
          versions.set(state.gameId, state.version);
          const element = card(state.gameId);
          element.classList.toggle("live", state.status === "inprogress");
          text(element, ".away", `${state.away.name} (${state.away.code})`);
          text(element, ".home", `${state.home.name} (${state.home.code})`);
          text(element, ".score", `${state.awayScore} – ${state.homeScore}`);
          text(element, ".inning", state.inning);
          text(element, ".outs", `${state.outs} out${state.outs === 1 ? "" : "s"}`);
          text(element, ".status", state.status);
          schedulePush(state.gameId);
        }

        function schedulePush(gameId) {
          if (pushTimers.has(gameId)) return;
          pushTimers.set(gameId, setTimeout(async () => {
            pushTimers.delete(gameId);
            try {
              const response = await fetch(`/v1/games/${encodeURIComponent(gameId)}/pushes?limit=1`);
              if (!response.ok) return;
              const latest = (await response.json()).latest;
              if (!latest) return;
              const content = latest.payload?.aps?.["content-state"]?.status;
              const at = new Date(latest.timestamp * 1000).toLocaleTimeString();
              text(card(gameId), ".last-push",
                `${latest.event} p${latest.priority} ${latest.state} at ${at}` +
                (content ? ` (${content.awayScore}–${content.homeScore})` : ""));
            } catch (error) { /* the next change tries again */ }
          }, 500));
        }

        async function start() {
          try {
            const response = await fetch("/v1/games");
            if (response.ok) (await response.json()).forEach(show);
          } catch (error) { /* the stream below sends the current states too */ }
          listen();
        }

        // The browser reconnects by itself (sending Last-Event-ID) after a dropped connection, but gives
        // up on an error answer (the server restarting): then start a new stream after a pause.
        function listen() {
          const stream = new EventSource("/v1/stream");
          stream.addEventListener("state", (event) => show(JSON.parse(event.data)));
          stream.onopen = () => { connection.textContent = "live"; };
          stream.onerror = () => {
            connection.textContent = "reconnecting…";
            if (stream.readyState === EventSource.CLOSED) setTimeout(listen, 3000);
          };
        }
        start();
        </script>
        </body>
        </html>
        """
}
