/**
 * One episode as the pages' lists show it: the run page derives it from the
 * full episode, the board page ships it as it is (its detail loads per task).
 * Typed once here for the board's data and the browser client (type-only).
 */
export interface ListRow {
  id: string;
  arm: string;
  split: string;
  task: number;
  /** task.task_id, when recorded (search finds it). */
  taskId: string | null;
  sample: number | null;
  country: string | null;
  verdict: string | null;
  /** geoeval's recomputed reward. */
  score: number;
  /** The environment's stored reward; null = unscored (geoeval's report leaves it out). */
  env: number | null;
  km: number | null;
  turns: number;
  flags: string[];
  /** Example rollouts, training traces: shown with their own badge. */
  format?: string;
}
