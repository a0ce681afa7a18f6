/**
 * georeplay's command line program. Each command lives in src/commands/<name>.ts and
 * registers itself here; this file only wires them and turns errors into
 * messages and exit codes (never a stack trace for bad input). src/cli.ts
 * runs it.
 */
import { Command } from "commander";
import { packageVersion } from "../install/package-info.ts";
import { registerVerify } from "./verify.ts";
import { registerFrames } from "./frames.ts";
import { registerPage } from "./page.ts";
import { registerRender } from "./render.ts";
import { registerSchema } from "./schema.ts";
import { registerReport } from "./report.ts";
import { registerGroups } from "./groups.ts";
import { registerServe } from "./serve.ts";
import { runMain } from "./run-main.ts";

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

  registerVerify(program);
  registerFrames(program);
  registerPage(program);
  registerServe(program);
  registerRender(program);
  registerReport(program);
  registerGroups(program);
  registerSchema(program);

  await runMain(program);
}
