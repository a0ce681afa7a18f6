/** The player's styles, appended to the page's one stylesheet (same CSP hash) when the page has a player. */
export function playerCss(): string {
  return `
.player-slot{margin:10px 0 14px}
.player{border:1px solid var(--line);border-radius:8px;background:var(--panel);padding:8px}
.player .start{font:inherit;font-weight:600;padding:6px 14px;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--panel);cursor:pointer}
.player canvas{display:block;width:100%;height:auto;aspect-ratio:16/9;background:#111;border-radius:4px}
.player .bar{display:flex;flex-wrap:wrap;align-items:center;gap:8px;margin-top:6px;font-size:.82rem}
.player .bar button,.player .bar select{font:inherit;padding:2px 8px;border:1px solid var(--line);border-radius:5px;background:var(--bg);color:var(--ink);cursor:pointer}
.player .scrub{position:relative;flex:1 1 100%;height:22px}
.player .scrub input{width:100%;margin:0;position:absolute;top:3px;left:0}
.player .mark{position:absolute;top:0;width:2px;height:7px;background:var(--accent);pointer-events:none}
.player .time{font-variant-numeric:tabular-nums;color:var(--muted)}
.player .note{color:var(--muted);font-size:.78rem;margin:4px 0 0}
.player code.cmd{display:inline-block;max-width:100%;overflow-x:auto;white-space:nowrap;vertical-align:middle;padding:1px 5px;background:var(--code);border-radius:4px}
.player:focus-within{outline:2px solid var(--accent);outline-offset:1px}
/* Theatre (theatre.ts): the player over everything, the canvas sized by script to fit above one row of controls. */
.player.theatre{position:fixed;inset:0;z-index:2147483000;margin:0;border:0;border-radius:0;padding:0;background:#000;display:flex;flex-direction:column;align-items:flex-start;overflow:hidden}
.player.theatre:focus-within{outline:none}
.player.theatre canvas{border-radius:0;flex:none;aspect-ratio:auto}
.player.theatre .bar{align-self:stretch;flex-wrap:nowrap;margin:auto 0 0;padding:6px 10px;background:var(--panel)}
.player.theatre .scrub{flex:1 1 auto;min-width:120px}
.player.theatre .note{display:none}
/* A group's siblings on one clock (tiles.ts): a grid of canvases, as many across as stay 480 px wide (MIN_TILE_W: a 1280x720 scene painted smaller does not read); theatre sets the columns to fill the screen. */
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,480px),1fr));gap:6px}
.tiles[hidden],.player canvas.score-card[hidden]{display:none}
.tiles .tile{margin:0}
.player.theatre .tiles{align-self:center;justify-content:center;padding:6px;overflow:hidden}
.player.theatre .tiles figcaption{color:#ccc}
.player.theatre canvas.score-card{align-self:center}
.tiles figcaption{font-size:.74rem;color:var(--muted);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
`;
}
