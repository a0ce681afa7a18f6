/**
 * Pool worker thread: runs the tasks it is sent (view checks grouped by
 * panorama, frame files) through a JobRunner, which decodes the panoramas it
 * needs itself. Loads only the renderer, the panorama store and the frame
 * writer: no input formats, schemas or commands.
 */
import { parentPort, workerData } from "node:worker_threads";
import { JobRunner, type PoolTask, type PoolResult } from "./job-runner.ts";

// libvips' thread count is process-wide, so it is the host's choice (the CLI sets one
// thread: the pool itself provides the parallelism), never set here.
const runner = new JobRunner(workerData.panos as string);

parentPort!.on("message", (msg: { id: number; task: PoolTask }) => {
  runner.run(msg.task).then(
    (result: PoolResult) => parentPort!.postMessage({ id: msg.id, result }),
    (e: Error) => parentPort!.postMessage({ id: msg.id, error: e.message ?? String(e) }),
  );
});
