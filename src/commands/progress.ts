/** A progress bar on stderr, shown only when stderr is a terminal (CI logs stay clean). */
import cliProgress from "cli-progress";

export interface Progress {
  update(value: number, detail?: string): void;
  stop(): void;
}

export function progressBar(label: string, total: number, opts: { enabled?: boolean } = {}): Progress {
  const enabled = opts.enabled ?? Boolean(process.stderr.isTTY);
  if (!enabled) return { update() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: `${label} {bar} {percentage}% · {detail}`,
      barsize: 28,
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { detail: "" });
  return {
    update(value, detail = "") {
      bar.update(value, { detail });
    },
    stop() {
      bar.stop();
    },
  };
}
