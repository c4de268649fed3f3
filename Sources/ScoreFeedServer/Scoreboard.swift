import Hummingbird

/// `GET /`: the scoreboard, one self-contained page (no CDN, no external file): the games of a day
/// (a day picker and a status filter) as cards showing what the lock screen shows in every sport
/// (the period, a clock the browser runs from the game's clock anchor, the line score, the shoot-out,
/// football's possession and down, soccer's red cards, baseball's bases and outs), filled by ONE
/// request (`/v1/scoreboard`) and kept current by the live stream `/v1/stream`; a card opens the
/// game's page. `GET /games/{id}` is the same page for one game, as a fan would look at it: its card,
/// line score and scoring plays, and a preview of the Live Activity on the lock screen drawn from the
/// newest push's content state, live from the game's stream, with a link to its operator view
/// (``operatorPage(_:_:)``). The script is ``script``.
enum Scoreboard {
    static func page(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        htmlResponse(html)
    }

    /// A self-contained page: HTML that loads nothing from elsewhere (its own inline style and script).
    static func htmlResponse(_ html: String) -> Response {
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
          .who { display: flex; align-items: center; gap: .35rem; min-width: 0; }
          .marks { display: inline-flex; align-items: center; gap: .2rem; flex: none; }
          .marks:empty { display: none; }
          .red-card { display: inline-block; width: .55rem; height: .78rem; border-radius: .12rem; background: #dc2626; }
          .ball { display: inline-block; width: .85rem; height: .55rem; border-radius: 50%; background: #8b4513;
                  box-shadow: inset 0 0 0 1px #5c2e0b; }
          .name { font-size: .85rem; color: var(--dim); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
          .runs { font-size: 1.6rem; font-weight: 700; font-variant-numeric: tabular-nums; min-width: 2ch; text-align: right; }
          .situation { display: flex; flex-wrap: wrap; align-items: center; gap: .3rem .7rem; font-size: .85rem; min-height: 1.6rem; }
          .situation .period { font-weight: 700; }
          .situation .period:empty, .situation .clock[hidden], .situation .note:empty, .situation .outs:empty { display: none; }
          .clock { font-variant-numeric: tabular-nums; font-weight: 700; }
          .clock .exact { font-weight: 400; color: var(--dim); margin-left: .35rem; }
          .card[data-clock="running"] .clock::before { content: "● "; color: var(--live); font-size: .7em; vertical-align: .15em; }
          .note { color: var(--dim); }
          .card[data-sport="baseball"] .diamond { display: block; }
          .diamond { width: 2.6rem; height: 2.6rem; flex: none; display: none; }
          .diamond .base { fill: none; stroke: var(--dim); stroke-width: 1.5; }
          .diamond .base.on { fill: var(--warn); stroke: var(--warn); }
          .outs { color: var(--dim); }
          .lines-wrap { overflow-x: auto; }
          .lines-wrap:empty { display: none; }
          .lines { border-collapse: collapse; font-size: .75rem; font-variant-numeric: tabular-nums; width: 100%; }
          .lines th, .lines td { padding: .1rem .25rem; text-align: center; min-width: 1.35rem; }
          .lines thead th { color: var(--dim); font-weight: 600; border-bottom: 1px solid var(--line); }
          .lines tbody th { text-align: left; font-weight: 700; }
          .lines .apart { border-left: 1px solid var(--line); }
          .lines .total { font-weight: 800; }
          .lines abbr { text-decoration: none; }
          .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
          .push { font-size: .75rem; color: var(--dim); border-top: 1px dashed var(--line); padding-top: .4rem; }
          .empty { color: var(--dim); }
          #operator-link { font-size: .85rem; color: var(--accent); }
          #operator-link[hidden] { display: none; }
          .card .open { font-size: .78rem; color: var(--accent); text-decoration: none; }
          body.game-page header label, body.game-page .filters, body.game-page .card .open,
          body.game-page .card .push { display: none; }
          body.game-page #games { grid-template-columns: minmax(0, 32rem); }
          .lock { max-width: 22rem; margin: 1rem 0 0; padding: .8rem 1rem; border-radius: 1.4rem; color: #fff;
                  background: linear-gradient(160deg, #1e293b, #0f172a); box-shadow: 0 6px 18px #0004; display: grid; gap: .4rem; }
          .lock[hidden] { display: none; }
          .lock .lock-top { display: flex; justify-content: space-between; font-size: .72rem; opacity: .75; }
          .lock .lock-row { display: grid; grid-template-columns: auto 1fr auto 1fr auto; align-items: center; gap: .4rem; }
          .lock .lock-code { font-weight: 800; letter-spacing: .03em; }
          .lock .lock-score { font-size: 1.9rem; font-weight: 800; font-variant-numeric: tabular-nums; text-align: center; }
          .lock .lock-mid { font-size: .78rem; text-align: center; opacity: .85; }
          .lock .lock-alert { font-size: .8rem; font-weight: 600; }
          .lock .lock-alert:empty { display: none; }
          .lock-caption { font-size: .75rem; color: var(--dim); margin: .3rem 0 0; }
          .plays { max-width: 32rem; margin: 1rem 0 0; padding: 0; list-style: none; font-size: .88rem; }
          .plays li { display: grid; grid-template-columns: 3.2rem 3.2rem 1fr auto; gap: .5rem; align-items: baseline;
                      border-bottom: 1px solid var(--line); padding: .35rem 0; }
          .plays .when, .plays .what { color: var(--dim); }
          .plays .score { font-variant-numeric: tabular-nums; font-weight: 700; }
          .plays .who { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; display: block; }
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
          <a id="operator-link" hidden>Operator view</a>
          <span id="connection">connecting…</span>
        </header>
        <main>
          <p id="day-title"></p>
          <div id="games"><p class="empty" id="empty">No games yet.</p></div>
          <section class="lock" id="lock" hidden aria-label="the Live Activity on the lock screen"></section>
          <p class="lock-caption" id="lock-caption" hidden></p>
          <ol class="plays" id="plays" hidden aria-label="scoring plays"></ol>
        </main>
        <script>
        \(script)
        </script>
        </body>
        </html>
        """
}
