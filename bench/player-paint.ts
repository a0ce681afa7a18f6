/**
 * Frames the page's player paints per second during camera moves, with each
 * reprojection path (the WebGL2 shader and the JS fallback), in alternating
 * rounds, in headless Chromium (no GPU here: WebGL2 runs on SwiftShader). One
 * pixel is read back after each frame so the work is done. Used by
 * bench/player.ts (the sample run's page) and bench/board-player.ts (a board
 * page's own data).
 */
import { chromium } from "playwright-core";

export const PLAYER_CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--use-angle=swiftshader",
  "--enable-unsafe-swiftshader",
  "--no-first-run",
  "--disable-background-networking",
];

export interface PaintRun {
  mode: string;
  frames: number;
  ms: number;
}

export interface PaintRateOptions {
  /** The episode id the player mounts. */
  id: string;
  /** Mount options beside the reprojection path (a board page passes the chunk's episode as its source). */
  mount?: Record<string, unknown>;
  frames: number[];
  rounds: number;
  /** Frames painted once, untimed, first (shader compile, texture upload, first decodes). */
  warmUp: number;
  /** Page load and readiness timeout (a board page takes a while to open). */
  timeoutMs?: number;
}

export async function paintRate(file: string, o: PaintRateOptions): Promise<PaintRun[]> {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: PLAYER_CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`file://${file}`, { timeout: o.timeoutMs ?? 30_000 });
    await page.waitForFunction(() => document.documentElement.dataset.ready === "1", null, { timeout: o.timeoutMs ?? 30_000 });
    return await page.evaluate(
      async ({ id, mount, rounds, frames, warmUp }) => {
        type Handle = { ready: Promise<void>; mode(): string; paintFrame(f: number): void };
        const load = (window as unknown as { grPlayerLoad: () => { mount(c: HTMLElement, id: string, o: object): Handle } }).grPlayerLoad;
        const players: [Handle, CanvasRenderingContext2D][] = [];
        for (const reprojection of ["webgl2", "js"]) {
          const div = document.createElement("div");
          document.body.appendChild(div);
          const h = load().mount(div, id, { ...mount, reprojection });
          await h.ready;
          players.push([h, div.querySelector("canvas")!.getContext("2d")!]);
        }
        const out: { mode: string; frames: number; ms: number }[] = [];
        for (const [h] of players) for (const f of frames.slice(0, warmUp)) h.paintFrame(f);
        for (let r = 0; r < rounds; r++) {
          for (const [h, ctx] of players) {
            const t0 = performance.now();
            for (const f of frames) {
              h.paintFrame(f);
              ctx.getImageData(0, 0, 1, 1);
            }
            out.push({ mode: h.mode(), frames: frames.length, ms: performance.now() - t0 });
          }
        }
        return out;
      },
      { id: o.id, mount: o.mount ?? {}, rounds: o.rounds, frames: o.frames, warmUp: o.warmUp },
    );
  } finally {
    await browser.close();
  }
}
