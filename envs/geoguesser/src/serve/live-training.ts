/**
 * A served training page's groups, kept current: seeded with the built
 * page's rollouts (buildPage collects them into this server's
 * TrainingGroups), then each new verified rollout is added, and after a
 * batch `take()` gives the `training` event: the steps the batch touched,
 * recomputed whole, and the run's summary.
 */
import type { TrainingGroups, TrainingRollout } from "../page/training.ts";
import type { TrainingEvent } from "../page/live-events.ts";

export class LiveTraining {
  private readonly touched = new Map<string, { run: string; step: number }>();
  private unscored: string[] = [];

  constructor(private readonly groups: TrainingGroups) {}

  add(r: TrainingRollout): void {
    if (this.groups.add(r)) this.touched.set(`${r.run}\u0000${r.step}`, { run: r.run, step: r.step });
    else this.unscored.push(r.id);
  }

  /** The event for what was added since the last one; null when nothing was. */
  take(): TrainingEvent | null {
    if (!this.touched.size && !this.unscored.length) return null;
    const e = { ...this.groups.update([...this.touched.values()]), unscored: this.unscored };
    this.touched.clear();
    this.unscored = [];
    return e;
  }
}
