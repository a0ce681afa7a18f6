/**
 * The page's one stylesheet (pinned by hash in the CSP). Its fonts are
 * embedded as data URLs, each face with its unicode-range (../fonts.ts says
 * which: without the range, the Latin face claimed every character and
 * Chromium drew "Sežana" with the caron over the a). Light and dark themes
 * follow the system via prefers-color-scheme.
 */
import type { FontFaceFile } from "../../../video/text/fonts.ts";
import { fontBase64, pageFontFaces } from "../fonts.ts";

function fontFace(f: FontFaceFile): string {
  return `@font-face{font-family:"${f.family}";font-style:${f.style};font-weight:${f.weight};font-display:swap;src:url(data:font/woff2;base64,${fontBase64(f)}) format("woff2");unicode-range:${f.unicodeRange}}`;
}

export function pageCss(): string {
  return [...pageFontFaces().map(fontFace), CSS].join("\n");
}

const CSS = `
:root{color-scheme:light dark;--bg:#f6f5f1;--panel:#fff;--ink:#1d1f21;--muted:#5d6368;--line:#dcd9d2;--accent:#2f5f8a;
--sea:#dfe9ef;--land:#efe9da;--border:#b9b2a2;--guess:#c4332a;--truth:#3f7a55;--pin:#d08a17;--sel:#e7eef6;
--ok:#2e7d4f;--warn:#9a6700;--bad:#b3261e;--code:#f1efe9}
@media (prefers-color-scheme:dark){:root{--bg:#15171a;--panel:#1e2125;--ink:#e6e4df;--muted:#9aa1a8;--line:#33383e;
--accent:#8ab4e0;--sea:#1b2a35;--land:#3a3f3a;--border:#6b6f66;--sel:#263545;--ok:#6cc58f;--warn:#e0b040;--bad:#ff8a80;--code:#262a2f}}
*{box-sizing:border-box}
html{background:var(--bg);color:var(--ink);font:15px/1.45 Inter,system-ui,-apple-system,"Segoe UI",sans-serif}
body{margin:0}
a{color:var(--accent)}
code,pre,.mono{font-family:"JetBrains Mono",ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.86em}
header.top{padding:14px 20px 8px;border-bottom:1px solid var(--line);background:var(--panel)}
header.top h1{font-size:1.2rem;margin:0 0 2px;font-weight:600}
header.top p{margin:0;color:var(--muted);font-size:.9rem}
.defs{position:absolute;width:0;height:0;overflow:hidden}
section.summary{padding:10px 20px;overflow-x:auto}
table{border-collapse:collapse}
table.stats{font-size:.86rem;background:var(--panel);border:1px solid var(--line)}
table.stats th,table.stats td{padding:4px 9px;border-bottom:1px solid var(--line);text-align:right;white-space:nowrap}
table.stats th:first-child,table.stats td:first-child{text-align:left}
table.stats thead th{color:var(--muted);font-weight:600;font-size:.78rem}
#gr-summary th,#gr-summary td{padding:4px 6px}
#gr-summary thead th{white-space:normal;vertical-align:bottom;min-width:3.5em}
#gr-summary td[data-stat="verified"],#gr-summary td[data-stat="not_counted"]{white-space:normal;min-width:7em}
/* The list is as wide as its columns need (ids are never cut; other text columns at 8em): the verdict column joins at 1200px. */
.layout{display:grid;grid-template-columns:minmax(340px,520px) 1fr;gap:0;align-items:start}
aside.list{position:sticky;top:0;max-height:100vh;overflow:auto;border-right:1px solid var(--line);background:var(--panel)}
.filters{display:flex;flex-wrap:wrap;gap:6px;padding:10px;border-bottom:1px solid var(--line);position:sticky;top:0;background:var(--panel);z-index:2}
.filters input,.filters select{font:inherit;font-size:.82rem;padding:3px 5px;border:1px solid var(--line);border-radius:5px;background:var(--bg);color:var(--ink);min-width:0}
.filters input[type=search]{flex:1 1 100%}
.filters .count{font-size:.8rem;color:var(--muted);align-self:center}
table.episodes{width:100%;font-size:.82rem}
table.episodes th{position:sticky;top:0;text-align:left;font-weight:600;color:var(--muted);padding:4px 6px;cursor:pointer;user-select:none;background:var(--panel);border-bottom:1px solid var(--line)}
table.episodes th[aria-sort=ascending]::after{content:" \\25B2"}
table.episodes th[aria-sort=descending]::after{content:" \\25BC"}
table.episodes td{padding:4px 6px;border-bottom:1px solid var(--line);white-space:nowrap;overflow:hidden;text-overflow:ellipsis;max-width:8em}
table.episodes td.id{max-width:none;overflow:visible}
table.episodes td.model{max-width:11em}
table.episodes th.num{white-space:normal;vertical-align:bottom}
table.episodes .wide{display:none}
@media (min-width:1200px){table.episodes .wide{display:table-cell}.layout{grid-template-columns:minmax(340px,680px) 1fr}}
table.episodes tr{cursor:pointer}
table.episodes tr:hover td{background:var(--sel)}
table.episodes tr[aria-selected=true] td{background:var(--sel);font-weight:600}
td.num,th.num{text-align:right}
main.detail{padding:14px 20px 60px;min-width:0}
.empty{color:var(--muted);padding:30px 0}
.ep-head h2{margin:0;font-size:1.15rem;font-weight:600;word-break:break-all}
.ep-head .meta{color:var(--muted);font-size:.86rem;margin:2px 0 8px}
.outcome{display:flex;gap:16px;flex-wrap:wrap;background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:12px;margin:10px 0 16px}
.outcome dl{display:grid;grid-template-columns:auto 1fr;gap:2px 12px;margin:0;font-size:.88rem;align-content:start}
.outcome dt{color:var(--muted)}
.outcome dd{margin:0}
.badge{display:inline-block;font-size:.72rem;font-weight:600;padding:1px 7px;border-radius:10px;border:1px solid currentColor;white-space:nowrap}
#gr-facts .drift{color:var(--bad);font-weight:700}
.b-reprojected{color:var(--warn);border-style:dashed}
.drift-hashes{border-left:3px solid var(--bad);padding:4px 0 4px 10px;margin:6px 0;font-size:.82rem}
.drift-hashes .drift-head{color:var(--bad);margin:0 0 4px}
.drift-hashes dl{display:grid;grid-template-columns:auto 1fr;gap:2px 10px;margin:0}
.drift-hashes dt{color:var(--muted)}
.drift-hashes dd{margin:0;display:flex;gap:6px;align-items:baseline;min-width:0}
.drift-hashes code.hash{user-select:all;overflow-wrap:anywhere;font-size:.78rem}
.drift-hashes button.copy{font-size:.72rem;padding:0 6px}
dialog.lightbox .drift-note{color:var(--bad);font-weight:600;margin:6px 0 0;max-width:640px}
.b-match{color:var(--ok)}.b-resolved{color:var(--accent)}.b-mismatch,.b-error{color:var(--bad)}.b-warn{color:var(--warn)}.b-muted{color:var(--muted)}
.turn{display:grid;grid-template-columns:min(320px,40%) 1fr;gap:14px;background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:12px;margin:0 0 12px;scroll-margin-top:12px}
.turn.current{outline:2px solid var(--accent);outline-offset:1px}
.turn.failed{border-style:dashed}
.media{width:100%;aspect-ratio:1/1;background:var(--code);border-radius:6px;overflow:hidden;position:relative}
.media img,.media svg{display:block;width:100%;height:100%}
.media .none{display:flex;align-items:center;justify-content:center;height:100%;color:var(--muted);font-size:.85rem;padding:10px;text-align:center}
.media .badge{position:absolute;left:6px;top:6px;background:var(--panel)}
.turn h3{margin:0 0 4px;font-size:.98rem;font-weight:600;display:flex;gap:8px;align-items:center;flex-wrap:wrap}
.turn h3 a{color:inherit;text-decoration:none}
.kv{display:flex;flex-wrap:wrap;gap:2px 14px;font-size:.82rem;color:var(--muted);margin:2px 0 6px}
.kv b{color:var(--ink);font-weight:600}
.call{background:var(--code);padding:4px 7px;border-radius:5px;display:block;overflow-wrap:normal;word-break:normal;overflow-x:auto;margin:4px 0}
.call .arg{white-space:pre}
.feedback{margin:6px 0;font-size:.9rem}
.errors{color:var(--bad);font-size:.85rem;margin:4px 0}
.note{font-size:.8rem;color:var(--muted);margin:4px 0}
details{margin:6px 0}
summary{cursor:pointer;color:var(--muted);font-size:.85rem}
pre.text{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--code);padding:8px;border-radius:6px;margin:4px 0;max-height:26em;overflow:auto}
table.episodes.one-model .model{display:none}
table.episodes.one-attempt .attempt{display:none}
table.episodes thead th{font-size:.74rem}
table.episodes th,table.episodes td{padding-left:4px;padding-right:4px}
table.episodes th.num,table.episodes td.num{padding-left:3px;padding-right:3px}
table.episodes td:not(.id):not(.model):not(.num):not(.wide){max-width:6.5em}
/* A verdict is never cut where the column shows: a narrow list wraps Wrong continent at its space instead. */
table.episodes td.wide{max-width:12em;white-space:normal}
/* A wide window gives the list room for whole country names too. */
@media (min-width:1600px){.layout{grid-template-columns:minmax(340px,780px) 1fr}table.episodes td:not(.id):not(.model):not(.num):not(.wide),table.episodes td.model{max-width:12em}}
/* A training list has five more columns (step, group mean and std, advantage, zero spread): its panel is wider, so the status column is whole. */
@media (min-width:1200px){.layout:has(th.train){grid-template-columns:minmax(340px,740px) 1fr}}
@media (min-width:1600px){.layout:has(th.train){grid-template-columns:minmax(340px,820px) 1fr}}
table.episodes th[data-sort]:focus-visible{outline:2px solid var(--accent);outline-offset:-2px}
.outcome .media{width:260px;flex:0 0 auto}
.legend{font-size:.78rem;color:var(--muted)}
.legend i{display:inline-block;width:9px;height:9px;border-radius:50%;margin:0 3px 0 8px}
.legend .g{background:#c4332a}.legend .t{background:#3f7a55}.legend .p{background:var(--pin)}
footer{padding:14px 20px;color:var(--muted);font-size:.8rem;border-top:1px solid var(--line)}
kbd{font-family:inherit;border:1px solid var(--line);border-radius:3px;padding:0 4px;font-size:.78rem}
.problems{margin:8px 20px;font-size:.85rem;color:var(--bad)}
section.sweep,section.training{padding:6px 20px 10px}
section.sweep h2,section.training h2,section.incomplete h2{font-size:1rem;margin:6px 0 4px;font-weight:600}
.explain{color:var(--muted);font-size:.84rem;margin:0 0 8px;max-width:70em}
.scroll{overflow-x:auto;margin:0 0 10px}
table.attempts td.attempt{text-align:center}
table.attempts td.best a{font-weight:600}
a.ep-link{text-decoration:none;border-bottom:1px dotted var(--accent)}
.dyn-charts{display:grid;grid-template-columns:1fr;gap:8px;margin:0 0 6px}
@media (min-width:1700px){.dyn-charts{grid-template-columns:1fr 1fr}}
svg.chart{width:100%;height:auto;display:block;background:var(--panel);border:1px solid var(--line);border-radius:6px;cursor:pointer}
svg.chart .ct{font-size:12px;fill:var(--ink);font-weight:600}
svg.chart .tick{font-size:10.5px;fill:var(--muted)}
svg.chart .axis{fill:none;stroke:var(--muted)}
svg.chart .grid{fill:none;stroke:var(--line);stroke-dasharray:2 3}
svg.chart .line{fill:none;stroke-width:1.6px}
svg.chart .dot{stroke:var(--panel);stroke-width:1px}
svg.chart .guide{stroke:var(--ink);stroke-width:1px;stroke-dasharray:3 2}
svg.chart .readout{font-size:11px;fill:var(--ink);font-variant-numeric:tabular-nums}
svg.chart .readout-bg{fill:var(--bg);stroke:var(--line)}
svg.chart .hover{pointer-events:none}
.train-facts{font-size:.86rem;margin:4px 0 8px}
.train-facts .stat{margin-right:2px}
.train-view{margin:10px 0 6px;padding:8px 12px;border:1px solid var(--line);border-radius:8px;background:var(--panel)}
.train-head{display:flex;flex-wrap:wrap;align-items:center;gap:10px}
.train-head h2{font-size:1rem;margin:4px 0;font-weight:600}
.train-nav{display:flex;gap:6px;flex-wrap:wrap}
.train-nav button{font:inherit;font-size:.78rem;padding:2px 8px;border:1px solid var(--line);border-radius:5px;background:var(--bg);color:var(--ink);cursor:pointer}
.train-nav button:disabled{opacity:.45;cursor:default}
table.step-groups tr.zero td{color:var(--muted)}
table.step-groups td.chips{text-align:left;white-space:normal}
table.step-groups td.chips a{margin-right:2px}
.grp-scroll{overflow-x:auto}
.grp-grid{display:grid;grid-auto-flow:column;grid-auto-columns:minmax(270px,1fr);gap:12px;margin:0 0 8px}
.grp-col{min-width:0}
.grp-col h3{font-size:.92rem;margin:4px 0;display:flex;gap:6px;align-items:center;flex-wrap:wrap;overflow-wrap:anywhere}
.grp-col .sib-numbers{font-size:.8rem}
.grp-col .outcome{flex-direction:column}
.grp-col .outcome .media{width:100%;max-width:260px}
.grp-col .turn{grid-template-columns:1fr}
.grp-heads .grp-col{border-top:3px solid var(--line);padding-top:4px}
.grp-heads .grp-col[data-rank="1"]{border-top-color:var(--accent)}
.s0{--c:var(--accent)}.s1{--c:#c4332a}.s2{--c:#3f7a55}.s3{--c:#d08a17}.s4{--c:#7a4fa0}.s5{--c:#4a8f9c}
svg.chart .line.s0,svg.chart .line.s1,svg.chart .line.s2,svg.chart .line.s3,svg.chart .line.s4,svg.chart .line.s5{stroke:var(--c)}
svg.chart .dot.s0,svg.chart .dot.s1,svg.chart .dot.s2,svg.chart .dot.s3,svg.chart .dot.s4,svg.chart .dot.s5{fill:var(--c)}
.legend.runs .run{border-bottom:3px solid var(--c);margin-right:10px}
section.incomplete{margin:10px 20px;padding:10px 14px;border:2px solid var(--bad);border-radius:8px;background:var(--panel)}
section.incomplete h2{color:var(--bad)}
section.incomplete li{font-size:.85rem;overflow-wrap:anywhere}
tr:target td{background:var(--sel)}
section.board,section.board-tasks{padding:6px 20px 10px}
section.board h2,section.board-tasks h2,.cmp-head h2{font-size:1rem;margin:6px 0 4px;font-weight:600}
section.board h3,section.summary h3{font-size:.9rem;margin:10px 0 4px;font-weight:600}
td.sig{font-weight:600}
.paired{display:flex;flex-wrap:wrap;gap:14px;align-items:flex-start}
.forest-box{margin:0}
.forest-box figcaption{font-size:.78rem;color:var(--muted);max-width:540px}
svg.forest{width:560px;max-width:100%;height:auto;background:var(--panel);border:1px solid var(--line);border-radius:6px}
svg.forest .zero{stroke:var(--muted);stroke-dasharray:3 3}
svg.forest .tick{font-size:9px;fill:var(--muted)}
svg.forest .arm{font-size:10px;fill:var(--ink)}
svg.forest .ci{stroke:var(--accent);stroke-width:2px}
svg.forest .delta{fill:var(--panel);stroke:var(--accent);stroke-width:2px}
svg.forest .up .delta,svg.forest .down .delta{fill:var(--accent)}
svg.forest .down .ci,svg.forest .down .delta{stroke:var(--bad)}
svg.forest .down .delta{fill:var(--bad)}
section.board-tasks .filters{position:static;padding:6px 0;border:0;background:none}
.scroll.tall{max-height:60vh;overflow:auto}
#gr-task-table td.up{color:var(--ok)}
#gr-task-table td.down{color:var(--bad)}
#gr-task-table th[data-sort],#gr-board th[data-col]{cursor:pointer;white-space:nowrap}
#gr-task-table th[aria-sort=ascending]::after,#gr-board th[aria-sort=ascending]::after{content:" \\25B2"}
#gr-task-table th[aria-sort=descending]::after,#gr-board th[aria-sort=descending]::after{content:" \\25BC"}
section.board-tasks .filters input#t-q{flex:0 1 22em}
#gr-task-table td.attempts{text-align:left}
table.episodes tr.more td{color:var(--accent);text-align:center}
.media canvas.view{display:block;width:100%;height:100%}
.media .reproj{position:absolute;right:6px;bottom:6px;font-size:.7rem;background:var(--panel);color:var(--warn);padding:0 5px;border-radius:8px}
section.compare{padding:10px 20px;border-top:2px solid var(--accent);border-bottom:1px solid var(--line)}
.cmp-head{position:relative}
.cmp-head .close{position:absolute;right:0;top:4px}
.cmp-attempt{margin:10px 0 18px}
.cmp-grid{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.cmp-col{min-width:0}
.cmp-col h3{font-size:.95rem;margin:4px 0;display:flex;gap:8px;align-items:center;flex-wrap:wrap}
.cmp-col .turn{grid-template-columns:minmax(0,200px) 1fr}
.cmp-col .outcome .media{width:200px}
mark.hit{background:#ffe066;color:#111;border-radius:2px;padding:0 1px}
tr.no-results td{white-space:normal;color:var(--muted);padding:14px 6px;cursor:default}
.uncounted,a.uncounted{color:var(--muted);text-decoration:line-through dotted}
td.uncounted{text-decoration:none;font-style:italic}
.filters input#f-expr{flex:1 1 100%;font-family:"JetBrains Mono",ui-monospace,monospace}
.filters input[aria-invalid=true]{border-color:var(--bad)}
.expr-error{flex:1 1 100%;color:var(--bad);font-size:.78rem;margin:0}
.filters .list-summary{flex:1 1 100%;margin:0;font-size:.75rem;color:var(--muted)}
.filters .list-summary .stat+.stat::before{content:" · "}
.filters .list-summary b{color:var(--ink);font-weight:600}
.filters details.fields{flex:1 1 100%;font-size:.75rem;color:var(--muted);margin:0}
.filters button,.ep-tools button,.reply-head button,.cmp-head button{font:inherit;font-size:.78rem;padding:2px 8px;border:1px solid var(--line);border-radius:5px;background:var(--bg);color:var(--ink);cursor:pointer}
.reply-head button[aria-pressed=true]{background:var(--sel)}
.ep-tools{display:flex;gap:10px;align-items:flex-start;flex-wrap:wrap;margin:0 0 6px}
.ep-tools details{margin:0}
.ep-tools dl{display:grid;grid-template-columns:auto 1fr;gap:1px 10px;font-size:.84rem;margin:4px 0}
.ep-tools dt{color:var(--muted)}
.ep-tools dd{margin:0}
.reply{margin:6px 0}
.reply-head{display:flex;gap:8px;align-items:center;font-size:.82rem;color:var(--muted)}
.md{overflow-wrap:anywhere;font-size:.92rem}
.md[data-clamp=on]{max-height:15em;overflow:hidden;-webkit-mask-image:linear-gradient(#000 70%,transparent);mask-image:linear-gradient(#000 70%,transparent)}
.md p{margin:4px 0}
.md pre{white-space:pre-wrap;background:var(--code);padding:6px 8px;border-radius:6px;overflow:auto;max-height:26em}
.md code{background:var(--code);padding:0 3px;border-radius:3px}
.md pre code{background:none;padding:0}
.md .md-link{text-decoration:underline dotted;color:var(--accent)}
.md .md-image{color:var(--muted);font-style:italic}
.md table{border-collapse:collapse}.md td,.md th{border:1px solid var(--line);padding:2px 6px}
details.prompt pre.text{background:none;border:1px dashed var(--line)}
.reproj-note{margin:0 0 10px}
.zoomable{cursor:zoom-in}
dialog.lightbox{padding:8px;border:1px solid var(--line);background:var(--panel);color:var(--ink);max-width:96vw;max-height:96vh}
dialog.lightbox::backdrop{background:rgba(0,0,0,.7)}
dialog.lightbox img,dialog.lightbox canvas{display:block;width:min(640px,90vw);height:auto;aspect-ratio:1}
dialog.lightbox figure{margin:0}
dialog.lightbox figcaption{font-size:.8rem;color:var(--muted);margin-top:4px}
.cmp-picker{font-size:.86rem;margin:4px 0}
.cmp-picker select{font:inherit;font-size:.82rem}
.cmp-picker .keys{color:var(--muted)}
.cmp-label{font-size:.9rem;margin:6px 0;color:var(--muted)}
.cmp-attempt.current{outline:2px solid var(--accent);outline-offset:4px}
.cmp-uncounted li{margin:4px 0;font-size:.88rem}
@media (max-width:820px){
 .layout{grid-template-columns:1fr}
 aside.list{position:static;max-height:45vh;border-right:0;border-bottom:1px solid var(--line)}
 main.detail{padding:12px}
 .turn{grid-template-columns:1fr}
 .outcome .media{width:100%}
 header.top,section.summary,section.sweep,section.training,section.board,section.board-tasks{padding-left:12px;padding-right:12px}
 .cmp-grid{grid-template-columns:1fr}
 table.episodes td.opt,table.episodes th.opt{display:none}
 .charts{gap:6px}
 svg.chart{width:calc(50% - 3px)}
}
`;
