/**
 * georeplay's command line program. Each command lives in src/commands/<name>.ts and
 * registers itself here; this file only wires them and turns errors into
 * messages and exit codes (never a stack trace for bad input). src/cli.ts
 * runs it.
 */
import { Command } from "commander";
import { packageVersion } from "../install/package-info.ts";
import { runMain } from "./run-main.ts";

type Register = (program: Command) => void;

/**
 * Each command's module, loaded on demand, in help order. A command line that names one
 * loads only that one: loading them all cost every run ~0.15 CPU-s (render's and page's
 * import graphs), a third of a small verify's budget. Anything else (no command, `help`,
 * a typo) loads them all, so help and commander's suggestions list every command.
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  verify: async () => (await import("./verify.ts")).registerVerify,
  frames: async () => (await import("./frames.ts")).registerFrames,
  page: async () => (await import("./page.ts")).registerPage,
  serve: async () => (await import("./serve.ts")).registerServe,
  render: async () => (await import("./render.ts")).registerRender,
  report: async () => (await import("./report.ts")).registerReport,
  groups: async () => (await import("./groups.ts")).registerGroups,
  schema: async () => (await import("./schema.ts")).registerSchema,
};

/** The commands to register for these arguments: the one named first, or all of them. */
export function commandsFor(args: readonly string[]): string[] {
  const named = args[0];
  return named !== undefined && Object.hasOwn(COMMANDS, named) ? [named] : Object.keys(COMMANDS);
}

export async function runCli(): Promise<void> {
  const program = new Command();
  program
    .name("georeplay")
    .description(
      "Verify, replay and publish recorded GeoGuesser agent episodes.\n\n" +
        "Traces store no pixels: georeplay re-renders every view from the recorded\n" +
        "camera and the panoramas on disk, and checks it byte for byte against the\n" +
        "recorded sha256 before it shows it to anyone.",
    )
    .version(packageVersion())
    .showHelpAfterError("(run with --help for usage)")
    // Wide enough for the commands' hand-wrapped descriptions (<= 100 columns), so they are not re-wrapped.
    .configureHelp({ sortSubcommands: false, helpWidth: 104 });

  // `georeplay ... | head` closes stdout early: that is the reader's choice, not an error.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
      throw e;
    });
  }

  const names = commandsFor(process.argv.slice(2));
  for (const register of await Promise.all(names.map((n) => COMMANDS[n]()))) register(program);

  await runMain(program);
}
