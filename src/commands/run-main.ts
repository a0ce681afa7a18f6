/** Runs the commander program, mapping errors to messages and exit codes. */
import { Command, CommanderError } from "commander";
import { GeoreplayError } from "../../replay/io/errors.ts";
import { EXIT_INPUT, exitCodeForKind } from "../reports/exit-codes.ts";
import { interruptSignal, onInterrupt, trackCommand } from "./interrupt.ts";
import { removeMadeFolders } from "./options/out.ts";

export async function runMain(program: Command): Promise<void> {
  // Subcommands copy settings when created, so override on every one of them too.
  for (const cmd of [program, ...program.commands]) cmd.exitOverride();
  // Keep the signal handlers installed for the whole command: every interrupt says so and exits 130/143.
  const off = onInterrupt(() => {});
  try {
    const running = program.parseAsync(process.argv);
    trackCommand(running);
    await running;
  } catch (e) {
    // Nothing half-made stays: a folder made for the output goes again while empty.
    removeMadeFolders();
    // Interrupted: the signal handler prints the message and exits 130/143.
    if (interruptSignal().aborted) return;
    if (e instanceof CommanderError) {
      // commander already printed its message; --help and --version exit 0.
      process.exitCode = e.exitCode === 0 ? 0 : EXIT_INPUT;
      return;
    }
    if (e instanceof GeoreplayError) {
      process.stderr.write(`georeplay: ${e.message}\n`);
      process.exitCode = exitCodeForKind(e.kind);
      return;
    }
    // A bug, not bad input: say so plainly, with the stack for the report.
    process.stderr.write(`georeplay: internal error (please report): ${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = 70;
  } finally {
    off();
  }
}
