/**
 * The sha256 of every view and thumbnail a run needs, each distinct one rendered once: views
 * by (image, view, boxes), thumbnails by (image, view). The resized view without boxes is kept
 * for the few most recent views (turns that only add or move a box share it), the thumbnail
 * base per image; view-encoder.ts keeps their JPEG coefficients and encodes the outlined ones
 * by patching them. From the built CLI the encoding runs on a worker thread (encode-worker.ts),
 * so this thread's resizing, parsing and checking overlap it; from sources, on this thread.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { RgbImage, DrawnBox } from "./render.ts";
import { thumbBase, viewBase } from "./render.ts";
import { ViewEncoder, type EncodeOp, type Encoded } from "./view-encoder.ts";

const rectKey = (r: readonly number[]) => r.join(",");

/** Where encode operations run: `send` answers `view` and `thumb` operations. */
interface Backend {
  send(m: EncodeOp): Promise<Encoded> | null;
}

function localBackend(keepBytes: boolean): Backend {
  const enc = new ViewEncoder(keepBytes);
  return { send: (m) => ((r) => (r ? Promise.resolve(r) : null))(enc.run(m)) };
}

/** The built worker's file; null when running from sources. */
function workerFile(): string | null {
  const file = fileURLToPath(new URL("./encode-worker.js", import.meta.url));
  return import.meta.url.endsWith(".js") && existsSync(file) ? file : null;
}

function workerBackend(file: string, keepBytes: boolean): Backend {
  const worker = new Worker(file, { workerData: { keepBytes } });
  // Unreferenced while nothing is pending, so a finished run exits without a close call.
  worker.unref();
  const pending = new Map<number, { resolve: (r: Encoded) => void; reject: (e: Error) => void }>();
  let next = 0;
  let failure: Error | null = null;
  const settle = (id: number) => {
    const p = pending.get(id);
    pending.delete(id);
    if (!pending.size) worker.unref();
    return p;
  };
  worker.on("message", (a: { id: number; sha256?: string; jpeg?: Uint8Array; error?: string }) => {
    const p = settle(a.id);
    if (a.error !== undefined) p?.reject(new Error(`JPEG encoder: ${a.error}`));
    else p?.resolve({ sha256: a.sha256!, jpeg: a.jpeg && Buffer.from(a.jpeg.buffer, a.jpeg.byteOffset, a.jpeg.byteLength) });
  });
  const fail = (e: Error) => {
    failure ??= e;
    for (const id of [...pending.keys()]) settle(id)?.reject(failure);
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`JPEG encoder thread exited (${code})`)));
  return {
    send(m) {
      if (failure) return m.op === "view" || m.op === "thumb" ? Promise.reject(failure) : null;
      const id = next++;
      worker.postMessage({ id, m });
      if (m.op !== "view" && m.op !== "thumb") return null;
      if (!pending.size) worker.ref();
      return new Promise<Encoded>((resolve, reject) => pending.set(id, { resolve, reject }));
    },
  };
}

export class ViewHashes {
  /** Distinct views and thumbnails rendered. */
  rendered = 0;
  private readonly hashes = new Map<string, Promise<string>>();
  /** Keys of the undrawn views the encoder holds, least recent first. */
  private readonly bases = new Set<string>();
  private readonly thumbs = new Set<string>();
  private readonly backend: Backend;
  /** One pixel buffer per size for the resize (the encoder copies what it is sent). */
  private readonly px = new Map<number, Uint8Array>();
  /** `onImage`: each distinct view and thumbnail's JPEG bytes, once, as rendered (a page keeps them; verify does not). */
  constructor(
    private readonly maxBases = 6,
    private readonly onImage?: (sha256: string, jpeg: Buffer) => void,
  ) {
    const file = workerFile();
    this.backend = file ? workerBackend(file, Boolean(onImage)) : localBackend(Boolean(onImage));
  }

  private hashed(r: Promise<Encoded>): Promise<string> {
    return r.then(({ sha256, jpeg }) => {
      if (jpeg) this.onImage?.(sha256, jpeg);
      return sha256;
    });
  }

  private buffer(n: number): Uint8Array {
    let b = this.px.get(n);
    if (!b) this.px.set(n, (b = new Uint8Array(n)));
    return b;
  }

  view(imageId: string, img: RgbImage, view: readonly number[], boxes: readonly DrawnBox[], W: number, H: number): Promise<string> {
    const vk = `${imageId}|${rectKey(view)}`;
    const key = `v|${vk}|${boxes.map((b) => `${b.id}:${rectKey(b.box)}`).join(";")}`;
    let h = this.hashes.get(key);
    if (!h) {
      if (this.bases.delete(vk)) this.bases.add(vk);
      else {
        this.backend.send({ op: "base", key: vk, px: viewBase(img, view, W, H, this.buffer(W * H * 3)), width: W, height: H });
        this.bases.add(vk);
        if (this.bases.size > this.maxBases) {
          const old = this.bases.values().next().value!;
          this.bases.delete(old);
          this.backend.send({ op: "drop", key: old });
        }
      }
      h = this.hashed(this.backend.send({ op: "view", key: vk, view, boxes })!);
      this.hashes.set(key, h);
      this.rendered++;
    }
    return h;
  }

  thumb(imageId: string, img: RgbImage, view: readonly number[]): Promise<string> {
    const key = `t|${imageId}|${rectKey(view)}`;
    let h = this.hashes.get(key);
    if (!h) {
      const tk = `t|${imageId}`;
      if (!this.thumbs.has(tk)) {
        const t = thumbBase(img);
        this.backend.send({ op: "base", key: tk, px: t.data, width: t.width, height: t.height });
        this.thumbs.add(tk);
      }
      h = this.hashed(this.backend.send({ op: "thumb", key: tk, view, iw: img.width, ih: img.height })!);
      this.hashes.set(key, h);
    }
    return h;
  }
}
