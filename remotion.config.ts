/**
 * Settings for `npx remotion studio` and `npx remotion render` (the Node API
 * used by `georeplay render` does not read this file; src/film/remotion/session.ts
 * passes the same settings explicitly).
 *
 * - Chromium is given explicitly: otherwise Remotion downloads Chrome
 *   Headless Shell at render time, which fails offline.
 * - bt709 gives standard limited-range yuv420p instead of full-range yuvj420p.
 * - Concurrency 1 was faster than 2 on a 2-core machine.
 * - Remotion's file server and the Studio listen on all interfaces: they get
 *   a random port rather than the well-known 3000.
 */
import { Config } from "@remotion/cli/config";

const randomPort = () => 20000 + Math.floor(Math.random() * 30000);

Config.setEntryPoint("video/remotion/index.ts");
Config.setBrowserExecutable(process.env.GEOREPLAY_CHROMIUM || "/usr/bin/chromium");
Config.setChromeMode("chrome-for-testing");
Config.setConcurrency(1);
Config.setCodec("h264");
Config.setColorSpace("bt709");
Config.setX264Preset("veryfast"); // same as georeplay render: encoding competes with Chromium for 2 cores
// Renders: "error" hides the cgroup memory warnings every render prints. Everything else keeps
// "info": the Studio says which (random) port it serves on, and `compositions` prints its list
// at that level (at "error" it printed nothing).
Config.setLogLevel(process.argv.includes("render") || process.argv.includes("still") ? "error" : "info");
Config.setStudioPort(randomPort());
Config.setRendererPort(randomPort());
