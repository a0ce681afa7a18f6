/** The crops page's own rules, after the core page's stylesheet (one style element, pinned by hash). */
export const CROPS_CSS = `
.crops-board{padding:10px 20px}
.crops-board h3{font-size:.9rem;margin:10px 0 6px}
section.compare{padding:10px 20px;background:var(--panel);border-bottom:1px solid var(--line)}
section.compare header{display:flex;gap:16px;align-items:baseline}
.compare-grid td{vertical-align:top;text-align:left}
.compare-grid a.attempt{display:block;margin:0 0 8px;color:var(--ink);text-decoration:none;font-size:.82rem}
.compare-grid a.attempt img{display:block;max-width:256px;height:auto;margin-top:4px}
.crops-image .toggles{display:flex;gap:14px;align-items:center;font-size:.86rem;margin:6px 0}
.crops-image .frame{position:relative;display:inline-block;width:min(100%,720px)}
.crops-image .frame img{display:block;width:100%;height:auto}
.crops-image svg.overlay{position:absolute;inset:0;width:100%;height:100%}
.crops-image rect{fill:none}
.crops-image rect.gt{stroke:#fff;stroke-dasharray:6 4;filter:drop-shadow(0 0 1px #000)}
.crops-image rect.view{stroke:#ffff00;stroke-dasharray:2 3}
.crops-image text{font-family:Inter,sans-serif;font-weight:600;paint-order:stroke;stroke:#000;stroke-width:3px}
.crops-image text.gt-label{fill:#fff}
table.boxes{display:block;max-width:100%;overflow-x:auto}
table.boxes td{text-align:left}
table.boxes tr.e-correct td:last-child{color:var(--ok)}
table.boxes tr:not(.e-correct) td:last-child{color:var(--bad);font-weight:600}
.crops-turn{border-top:1px solid var(--line);padding:8px 0}
.crops-turn .pics{display:flex;gap:10px;align-items:flex-start;flex-wrap:wrap}
.crops-turn img.view{max-width:100%;height:auto}
.crops-turn img.thumb{border:1px solid var(--line)}
.crops-turn pre{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--code);padding:6px;margin:4px 0}
.crops-findings .finding p{margin:2px 0}
.crops-training{padding:6px 20px 10px}
.crops-training .legend .run{border-bottom:3px solid var(--c);margin-right:10px}
@media (min-width:1000px){.crops-training .dyn-charts{grid-template-columns:1fr 1fr}}
@media (min-width:1700px){.crops-training .dyn-charts{grid-template-columns:1fr 1fr 1fr}}
.crops-groups .step-pick{margin:8px 0}
.crops-groups section.group{border-top:1px solid var(--line);padding:6px 0}
.crops-groups h4{font-size:.88rem;margin:4px 0}
.crops-groups .siblings{display:grid;grid-template-columns:repeat(auto-fill,minmax(180px,1fr));gap:8px}
.crops-groups article.sibling{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:6px;cursor:pointer;font-size:.8rem}
.crops-groups article.sibling header{margin-bottom:2px}
.crops-groups article.sibling .nums{margin:2px 0 4px;display:flex;flex-wrap:wrap;gap:0 10px}
.crops-groups article.sibling .nums .kv{margin:0}
.crops-groups .frame{position:relative;width:100%}
.crops-groups .frame img{display:block;width:100%;height:auto}
.crops-groups svg.overlay{position:absolute;inset:0;width:100%;height:100%}
.crops-groups rect{fill:none}
.crops-groups rect.gt{stroke:#fff;stroke-dasharray:6 4}
.crops-groups p.drift{color:var(--bad);font-weight:600;margin:2px 0}
.episode-head button.play-episode{font:inherit;font-weight:600;padding:4px 14px;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--panel);cursor:pointer}
.crops-stage{max-width:1100px;margin:6px 0}
.crops-player .bar input[type=range]{flex:1 1 240px}
.kv{margin-right:12px}.kv .k{color:var(--muted)}
`;
