/**
 * Compare by attempt (board pages): one task, a row per attempt, a column per arm; each cell the
 * attempt's score, its parts and its final view (the re-rendered bytes). A cell opens its episode.
 */
import { el } from "../../../../../src/page/client/dom.ts";
import type { CropsDetail, CropsRow } from "../model.ts";
import type { Images } from "./detail.ts";

export function renderCompare(root: HTMLElement, task: string, rows: readonly CropsRow[], detail: (id: string) => CropsDetail | undefined, imgs: Images): void {
  root.textContent = "";
  const mine = rows.filter((r) => `${r.split}/${r.task}` === task);
  const arms = [...new Set(rows.map((r) => r.arm))];
  const attempts = [...new Set(mine.map((r) => r.attempt))].sort((a, b) => (a ?? -1) - (b ?? -1));
  const head = el("header");
  head.appendChild(el("h2", null, `Task ${task}: ${arms.join(" vs ")}, attempt by attempt`));
  const close = el("a", null, "close");
  (close as HTMLAnchorElement).href = "#";
  head.appendChild(close);
  root.appendChild(head);
  const t = el("table", "stats compare-grid");
  t.id = "gr-compare-grid";
  const hr = el("tr");
  hr.appendChild(el("th", null, "attempt"));
  for (const a of arms) hr.appendChild(el("th", null, a));
  t.appendChild(hr);
  for (const at of attempts) {
    const tr = el("tr");
    tr.dataset.attempt = at === null ? "" : String(at);
    tr.appendChild(el("td", null, at === null ? "–" : String(at)));
    for (const a of arms) {
      const td = el("td");
      td.dataset.arm = a;
      for (const r of mine.filter((x) => x.arm === a && x.attempt === at)) {
        const link = el("a", "attempt") as HTMLAnchorElement;
        link.href = `#${encodeURIComponent(r.key)}`;
        link.dataset.id = r.id;
        link.dataset.score = String(r.score);
        link.appendChild(el("b", null, r.score.toFixed(3)));
        link.appendChild(
          document.createTextNode(
            ` recall ${r.recall.toFixed(3)} · precision ${r.precision.toFixed(2)} · ${r.misses} missed · ${r.falseAlarms} false alarm(s)`,
          ),
        );
        const d = detail(r.key);
        const last = d?.turns[d.turns.length - 1];
        if (last) {
          const img = document.createElement("img");
          img.src = imgs.images[last.view.rendered] ?? "";
          img.alt = `${r.id}: the final view`;
          link.appendChild(img);
        }
        td.appendChild(link);
      }
      tr.appendChild(td);
    }
    t.appendChild(tr);
  }
  root.appendChild(t);
}
