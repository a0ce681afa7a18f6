/**
 * A free TCP port chosen by the OS. Remotion's file server binds all
 * interfaces; a random port keeps it off the well-known 3000 and lets
 * several renders run side by side.
 */
import { createServer } from "node:net";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => (port ? resolve(port) : reject(new Error("could not pick a free port"))));
    });
  });
}
