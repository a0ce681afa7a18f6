/** The thread ViewHashes encodes on (from the built CLI): ViewEncoder's operations, answered by id in order. */
import { parentPort, workerData } from "node:worker_threads";
import { ViewEncoder, type EncodeOp } from "./view-encoder.ts";

const enc = new ViewEncoder(Boolean(workerData?.keepBytes));
parentPort!.on("message", ({ id, m }: { id: number; m: EncodeOp }) => {
  try {
    const r = enc.run(m);
    if (r) parentPort!.postMessage({ id, sha256: r.sha256, jpeg: r.jpeg });
  } catch (e) {
    parentPort!.postMessage({ id, error: (e as Error).message });
  }
});
