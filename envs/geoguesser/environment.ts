/** GeoGuesser: street-level panoramas, a camera that turns, zooms and walks, a guess scored by distance (geoeval). */
import type { Environment } from "../environment.ts";

export const geoguesser: Environment = {
  name: "geoguesser",
  title: "GeoGuesser",
  verify: async (inputs, o) => (await import("./src/verify-command.ts")).verifyCommand(inputs, o),
  frames: async (inputs, o) => (await import("./src/frames-command.ts")).framesCommand(inputs, o),
  report: async (inputs, o) => (await import("./src/report-command.ts")).reportCommand(inputs, o),
  render: async (inputs, o, command) => (await import("./src/render-command.ts")).renderCommand(inputs, o, command),
  page: async (inputs, o) => (await import("./src/page-command.ts")).pageCommand(inputs, o),
  serve: async (o) => (await import("./src/serve-command.ts")).serveCommand(o),
};
