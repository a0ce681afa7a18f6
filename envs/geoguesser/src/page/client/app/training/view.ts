/**
 * The training page's step and group views, rendered from the store's
 * route into the training section: `#step/<n>` lists the step's groups
 * (its numbers above them; zero-spread groups flagged; only the groups with
 * a sibling the list's filters leave in, so the one filter expression
 * filters both), `#group/<step>/<split>/<index>` shows one group's siblings
 * (group.ts). The charts' points open steps (charts.ts); n/p step through
 * steps or a step's groups, Escape closes. On a live page `update` merges
 * the server's new steps: the facts and charts are redrawn, and an open view
 * whose numbers changed is drawn again in place (same address, same scroll).
 */
import type { PageEpisode } from "../../../model.ts";
import type { PageGroup, PageStep } from "../../../training.ts";
import { badge, el, toDom } from "../../../../../../../src/page/client/dom.ts";
import type { Store, PageState } from "../../state/store.ts";
import { episodeHash, formatRoute, type Route } from "../../state/route.ts";
import type { ListRow } from "../../state/rows.ts";
import {
  groupOf,
  groupRoute,
  groupsPassing,
  indexTraining,
  mergeTraining,
  neighbourStep,
  runOf,
  stepOf,
  stepRoute,
  type TrainIndex,
} from "../../state/training.ts";
import type { TrainingEvent } from "../../../live-events.ts";
import { SUMMARY_ID, trainingFacts } from "../../../training-parts.ts";
import { stopPlayer } from "../../../player/hook.ts";
import type { Media } from "../detail/detail.ts";
import { bindCharts, redrawCharts } from "./charts.ts";
import { groupFacts, renderGroup, signed, TILES } from "./group.ts";

export interface TrainingEpisodes {
  get(id: string): PageEpisode | null | Promise<PageEpisode | null>;
}

type StepRoute = Extract<Route, { kind: "step" }>;
type GroupRoute = Extract<Route, { kind: "group" }>;

const isTrainRoute = (r: Route): r is StepRoute | GroupRoute => r.kind === "step" || r.kind === "group";

export class TrainingView {
  private readonly root: HTMLElement;
  private readonly rowsById: Map<string, ListRow>;

  constructor(
    private readonly doc: Document,
    private readonly store: Store,
    private readonly ix: TrainIndex,
    rows: readonly ListRow[],
    /** The rows the list's filters leave in (the list renders first: it subscribed first). */
    private readonly shown: () => readonly ListRow[],
    private readonly episodes: TrainingEpisodes,
    private readonly media: Media,
  ) {
    this.root = doc.getElementById("gr-train-view") as HTMLElement;
    this.rowsById = new Map(rows.map((r) => [r.id, r]));
    bindCharts(doc, ix, this.openStep);
    store.subscribe((s, prev) => void this.render(s, prev));
  }

  private readonly openStep = (step: number): void => {
    const run = this.ix.runs.find((r) => this.ix.steps.has(`${r}\u0000${step}`)) ?? this.ix.runs[0];
    this.store.set({ route: stepRoute(this.ix, run, step) });
  };

  /** A live page's new rows (the step view's filter reads them). */
  addRows(rows: readonly ListRow[]): void {
    for (const r of rows) this.rowsById.set(r.id, r);
  }

  /**
   * A live page's `training` event: merged into the index (the one object every part reads), then
   * `merged` (the list's rows follow), then the facts and charts redrawn, and the open step or group
   * drawn again if its numbers changed.
   */
  update(e: TrainingEvent, merged?: () => void): void {
    const before = this.viewNumbers();
    Object.assign(this.ix, indexTraining(mergeTraining(this.ix.data, e)));
    merged?.();
    this.doc.getElementById(SUMMARY_ID)?.replaceChildren(...trainingFacts(this.ix.data).map((m) => toDom(m)));
    redrawCharts(this.doc, this.ix, this.openStep);
    if (this.open && this.viewNumbers() !== before) void this.redraw();
  }

  /** What the open view shows of the table (its step or group and its neighbours), to tell whether it changed. */
  private viewNumbers(): string {
    const r = this.store.get().route;
    if (r.kind === "step") {
      const run = runOf(this.ix, r);
      return JSON.stringify([stepOf(this.ix, r), neighbourStep(this.ix, run, r.step, -1), neighbourStep(this.ix, run, r.step, 1)]);
    }
    if (r.kind === "group") return JSON.stringify([groupOf(this.ix, r), stepOf(this.ix, r)?.groups.map((g) => [g.task, g.group_id])]);
    return "";
  }

  /** The open view drawn again where it is: no scroll, no placeholder while the siblings load. */
  private async redraw(): Promise<void> {
    const r = this.store.get().route;
    if (r.kind === "step") this.renderStep(r);
    else if (r.kind === "group") await this.renderGroup(r, true);
  }

  get open(): boolean {
    return !this.root.hidden;
  }

  async render(s: PageState, prev: PageState | null): Promise<void> {
    const r = s.route;
    if (!isTrainRoute(r)) {
      if (prev && isTrainRoute(prev.route)) {
        this.root.hidden = true;
        stopPlayer(TILES);
      }
      return;
    }
    const same = prev !== null && formatRoute(prev.route) === formatRoute(r) && !this.root.hidden;
    if (r.kind === "step") {
      // A step's list follows the list's filters; the same step is redrawn only when they change.
      if (same && JSON.stringify(prev!.query) === JSON.stringify(s.query)) return;
      stopPlayer(TILES);
      this.renderStep(r);
    } else {
      if (same) return;
      await this.renderGroup(r);
    }
    if (!same) this.root.scrollIntoView({ block: "start" });
  }

  /** n/p: the next or previous step (step view) or group of the step (group view). */
  go(d: 1 | -1): void {
    const r = this.store.get().route;
    if (r.kind === "step") {
      const next = neighbourStep(this.ix, runOf(this.ix, r), r.step, d);
      if (next !== null) this.store.set({ route: stepRoute(this.ix, runOf(this.ix, r), next) });
    } else if (r.kind === "group") {
      const g = groupOf(this.ix, r);
      const groups = stepOf(this.ix, r)?.groups ?? [];
      const next = g ? groups[groups.indexOf(g) + d] : undefined;
      if (next) this.store.set({ route: groupRoute(this.ix, next) });
    }
  }

  close(): void {
    this.store.set({ route: { kind: "none" } });
    this.doc.getElementById("gr-training-section")?.scrollIntoView({ block: "start" });
  }

  private head(title: string, nav: [string, Route | null][]): HTMLElement {
    const head = el("div", "train-head");
    head.appendChild(el("h2", null, title));
    const tools = el("div", "train-nav");
    for (const [label, route] of nav) {
      const b = el("button", null, label) as HTMLButtonElement;
      b.type = "button";
      if (route === null) b.disabled = true;
      else b.addEventListener("click", () => this.store.set({ route }));
      tools.appendChild(b);
    }
    const close = el("button", "close", "close (Esc)") as HTMLButtonElement;
    close.type = "button";
    close.addEventListener("click", () => this.close());
    tools.appendChild(close);
    head.appendChild(tools);
    return head;
  }

  private runLabel(run: string): string {
    return this.ix.runs.length > 1 ? ` · run ${run}` : "";
  }

  private stepFacts(st: PageStep): HTMLElement {
    const p = el("p", "train-facts step-facts");
    const stat = (key: string, label: string, value: number | null, text: string) => {
      const s = el("span", "stat", `${label} `);
      s.dataset.stat = key;
      s.dataset.value = value === null ? "" : String(value);
      s.appendChild(el("b", null, text));
      p.appendChild(s);
    };
    stat("groups", "groups", st.groups, String(st.groups));
    stat("episodes", "rollouts", st.episodes, String(st.episodes));
    stat("mean_reward", "mean env reward", st.mean_reward, st.mean_reward.toFixed(4));
    stat("frac_reward_zero_std", "frac_reward_zero_std", st.frac_reward_zero_std, `${(Math.round(st.frac_reward_zero_std * 1000) / 10).toFixed(1)}%`);
    stat("median_group_std", "median group std", st.median_group_std, st.median_group_std === null ? "–" : st.median_group_std.toFixed(4));
    stat("multiplier", "multiplier", st.multiplier, st.multiplier === null ? "–" : `${st.multiplier.toFixed(1)}x`);
    stat("batch_std", "batch std", st.batch_std, st.batch_std === null ? "–" : st.batch_std.toFixed(4));
    return p;
  }

  private renderStep(r: StepRoute): void {
    const ix = this.ix;
    const run = runOf(ix, r);
    const sv = stepOf(ix, r);
    this.root.hidden = false;
    this.root.dataset.view = "step";
    this.root.dataset.step = String(r.step);
    delete this.root.dataset.group;
    const prevStep = neighbourStep(ix, run, r.step, -1);
    const nextStep = neighbourStep(ix, run, r.step, 1);
    const head = this.head(`Step ${r.step}${this.runLabel(run)}`, [
      [prevStep === null ? "←" : `← step ${prevStep}`, prevStep === null ? null : stepRoute(ix, run, prevStep)],
      [nextStep === null ? "→" : `step ${nextStep} →`, nextStep === null ? null : stepRoute(ix, run, nextStep)],
    ]);
    if (!sv) {
      const all = ix.stepsOf.get(run) ?? [];
      this.root.replaceChildren(
        head,
        el("p", "errors", `No step ${r.step}${this.runLabel(run)} in this page (steps ${all[0] ?? "–"}–${all[all.length - 1] ?? "–"}).`),
      );
      return;
    }
    const shown = this.shown();
    const filtered = shown.length !== this.rowsById.size;
    const inList = new Set(shown.map((x) => x.id));
    const groups = groupsPassing(sv.groups, this.rowsById, filtered ? (x) => inList.has(x.id) : undefined);
    const body: Node[] = [head, this.stepFacts(sv.step)];
    if (filtered)
      body.push(el("p", "note filter-note", `${groups.length} of ${sv.groups.length} groups have a sibling the list's search and filters leave in.`));
    body.push(this.groupTable(groups));
    this.root.replaceChildren(...body);
  }

  private groupTable(groups: PageGroup[]): HTMLElement {
    const wrap = el("div", "scroll");
    const table = el("table", "stats step-groups");
    const thead = el("thead");
    const hr = el("tr");
    for (const [h, title] of [
      ["group", "task split/index (a recorded group_id after it): opens the siblings side by side"],
      ["size", "siblings"],
      ["mean", "mean env reward (outcome.reward)"],
      ["std", "sample std (Bessel); none for a group of one"],
      ["spread", "zero spread: isclose(std, 0), no learning signal"],
      ["rewards", "each sibling's env reward (outcome.reward), in sibling order: opens the rollout"],
      ["advantages", "each sibling's advantage, in sibling order"],
    ]) {
      const th = el("th", null, h);
      th.title = title;
      hr.appendChild(th);
    }
    thead.appendChild(hr);
    table.appendChild(thead);
    const tbody = el("tbody");
    for (const g of groups) {
      const tr = el("tr", g.zero_std ? "zero" : null);
      tr.dataset.split = g.task.split;
      tr.dataset.index = String(g.task.index);
      tr.dataset.zero = String(g.zero_std);
      const name = el("td");
      const a = el("a", "group-link", `${g.task.split}/${g.task.index}${g.group_id !== null ? ` (${g.group_id})` : ""}`) as HTMLAnchorElement;
      a.href = "#" + formatRoute(groupRoute(this.ix, g));
      name.appendChild(a);
      tr.appendChild(name);
      const num = (key: string, value: number | null, text: string) => {
        const td = el("td", "num", text);
        td.dataset.stat = key;
        td.dataset.value = value === null ? "" : String(value);
        tr.appendChild(td);
      };
      num("size", g.size, String(g.size));
      num("mean", g.mean, g.mean.toFixed(4));
      num("std", g.std, g.std === null ? "–" : g.std.toFixed(4));
      const spread = el("td");
      if (g.zero_std) spread.appendChild(badge("warn", "zero spread"));
      else if (g.std === null) spread.appendChild(badge("muted", "one rollout"));
      if (g.identical.length) {
        const n = g.identical.reduce((k, set) => k + set.length, 0);
        const b = badge("muted", `${n} identical`);
        b.classList.add("identical");
        b.title = "siblings whose trajectories are byte-identical (same actions, same views): they score alike";
        spread.appendChild(b);
      }
      tr.appendChild(spread);
      const rewards = el("td", "chips");
      g.episode_ids.forEach((id, i) => {
        const link = el("a", "ep-link", g.rewards[i].toFixed(3)) as HTMLAnchorElement;
        link.href = episodeHash(id, null);
        link.dataset.id = id;
        link.title = `#${g.ranks[i]} · ${id}`;
        rewards.appendChild(link);
        rewards.appendChild(this.doc.createTextNode(" "));
      });
      tr.appendChild(rewards);
      const adv = el("td", "chips mono", g.advantages.map((x) => signed(x, 2)).join(" "));
      adv.dataset.stat = "advantages";
      adv.dataset.value = g.advantages.join(" ");
      tr.appendChild(adv);
      tbody.appendChild(tr);
    }
    if (!groups.length) {
      const tr = el("tr", "no-results");
      const td = el("td", "empty", "No group of this step has a sibling the list's search and filters leave in.") as HTMLTableCellElement;
      td.colSpan = 7;
      tr.appendChild(td);
      tbody.appendChild(tr);
    }
    table.appendChild(tbody);
    wrap.appendChild(table);
    return wrap;
  }

  /** `again`: the open group redrawn with new numbers (the siblings are loaded before anything is replaced). */
  private async renderGroup(r: GroupRoute, again = false): Promise<void> {
    const ix = this.ix;
    const run = runOf(ix, r);
    const g = groupOf(ix, r);
    this.root.hidden = false;
    this.root.dataset.view = "group";
    this.root.dataset.step = String(r.step);
    this.root.dataset.group = `${r.split}/${r.index}`;
    const groups = stepOf(ix, r)?.groups ?? [];
    const at = g ? groups.indexOf(g) : -1;
    const prevG = at > 0 ? groups[at - 1] : null;
    const nextG = at >= 0 && at + 1 < groups.length ? groups[at + 1] : null;
    const head = this.head(`Group ${r.split}/${r.index}${r.id !== undefined ? ` (${r.id})` : ""} · step ${r.step}${this.runLabel(run)}`, [
      [`↑ step ${r.step}`, stepRoute(ix, run, r.step)],
      [prevG ? `← ${prevG.task.split}/${prevG.task.index}` : "←", prevG ? groupRoute(ix, prevG) : null],
      [nextG ? `${nextG.task.split}/${nextG.task.index} →` : "→", nextG ? groupRoute(ix, nextG) : null],
    ]);
    if (!g) {
      this.root.replaceChildren(head, el("p", "errors", `No group ${r.split}/${r.index} at step ${r.step}${this.runLabel(run)} in this page.`));
      return;
    }
    if (!again) this.root.replaceChildren(head, groupFacts(g, ix.data.scale_rewards), el("p", "empty", "loading the siblings…"));
    const episodes = await Promise.all(g.episode_ids.map((id) => this.episodes.get(id)));
    const now = this.store.get().route;
    if (now.kind !== "group" || formatRoute(now) !== formatRoute(r)) return;
    // Its siblings changed: the tiles player (if playing) had the old ones.
    if (again) stopPlayer(TILES);
    this.root.replaceChildren(head, groupFacts(g, ix.data.scale_rewards), renderGroup(g, episodes, this.media, ix.data.scale_rewards));
  }
}
