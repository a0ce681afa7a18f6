/** GeoGuesser: street-level panoramas, a camera that turns, zooms and walks, a guess scored by distance (geoeval). */
import type { Environment } from "../environment.ts";
import { inputsBeside, type GeoInputs } from "./replay/tasks/inputs-beside.ts";

/** The options with --tasks/--panos filled from beside the run when not given, saying so on stderr. */
export function withInputsBeside<O extends GeoInputs>(inputs: string[], o: O): O {
  const b = inputsBeside(inputs, o);
  if (!b.found.length) return o;
  const said = b.found.map((k) => `--${k} ${b[k]}`).join(" and ");
  process.stderr.write(`georeplay: using ${said} (found beside the run; pass --tasks/--panos to choose others)\n`);
  return { ...o, tasks: b.tasks, panos: b.panos };
}

export const geoguesser: Environment = {
  name: "geoguesser",
  title: "GeoGuesser",
  verify: async (inputs, o) => (await import("./src/verify-command.ts")).verifyCommand(inputs, withInputsBeside(inputs, o)),
  frames: async (inputs, o) => (await import("./src/frames-command.ts")).framesCommand(inputs, withInputsBeside(inputs, o)),
  report: async (inputs, o) => (await import("./src/report-command.ts")).reportCommand(inputs, o),
  render: async (inputs, o, command) => (await import("./src/render-command.ts")).renderCommand(inputs, withInputsBeside(inputs, o), command),
  page: async (inputs, o) => (await import("./src/page-command.ts")).pageCommand(inputs, withInputsBeside(inputs, o)),
  serve: async (o) => (await import("./src/serve-command.ts")).serveCommand(withInputsBeside(o.inputs, o)),
};
