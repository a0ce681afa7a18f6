/** `georeplay serve`: the page of a run as it is written, served on this machine and updated live. */
import { Command, InvalidArgumentError } from "commander";
import { GeoreplayError } from "../../replay/io/errors.ts";
import { nonNegativeInt, positiveNumber, replayAction } from "./options/shared.ts";
import { declareOptions, type OptionDefs } from "./options/declare.ts";
import { interruptSignal, onInterrupt } from "./interrupt.ts";
import { PAGE_OPTIONS, writePage, type PageCliOptions } from "./page.ts";
import { filmingEnvironment } from "./options/filmed-env.ts";

export interface ServeCliOptions extends Omit<PageCliOptions, "out"> {
  out?: string;
  port: number;
  host: string;
  once?: boolean;
  idle: number;
}

export const DEFAULT_PORT = 8765;

function portNumber(text: string): number {
  const n = nonNegativeInt(text);
  if (n > 65535) throw new InvalidArgumentError(`expected a port from 0 to 65535, got ${JSON.stringify(text)}`);
  return n;
}

export const SERVE_OPTIONS: OptionDefs<ServeCliOptions> = {
  ...PAGE_OPTIONS,
  out: {
    ...PAGE_OPTIONS.out,
    required: false,
    description: `with --once: where the page goes, as for \`georeplay page -o\` (${PAGE_OPTIONS.out.description})`,
  },
  jobs: { ...PAGE_OPTIONS.jobs, description: "threads rendering views (the first page as `page` does; the live episodes: default one per core)" },
  port: {
    flags: "--port <n>",
    description: "port to listen on (0: any free port; the URL is printed on stderr)",
    parse: portNumber,
    default: DEFAULT_PORT,
  },
  host: {
    flags: "--host <address>",
    description: "address to listen on; anything but loopback makes the page reachable from the network (said on stderr)",
    default: "127.0.0.1",
  },
  once: { flags: "--once", description: "write the page of what is there now and exit, exactly as `georeplay page` (needs -o)" },
  idle: {
    flags: "--idle <seconds>",
    description: "seconds without any input growing before the page says the writer has stopped",
    parse: positiveNumber,
    default: 30,
  },
};

export function registerServe(program: Command): void {
  const cmd = program
    .command("serve")
    .summary("serve a run's page on this machine and update it live as the run's files grow")
    .description(
      "Builds the folder form of `georeplay page` for the inputs (run, training run or board) into a\n" +
        "temp folder and serves it on http://127.0.0.1:PORT/ (the URL is printed on stderr). Lines\n" +
        "appended to the inputs' *.jsonl files are verified as `georeplay verify` does and pushed to every\n" +
        "open page (server-sent events at /events): the episode list and its counts grow in place (on a\n" +
        "training page the GRPO charts, steps and groups too), the reader's place and open episode or\n" +
        "step stay, and a live mark shows the last episode's time, and\n" +
        "'writer stopped' when no input has grown for --idle seconds. A page that reconnects gets\n" +
        "exactly what it missed.\n\n" +
        "What a writer does to its files is not an error: a half-written last line waits for its\n" +
        "newline; a truncated or replaced file is read again (episodes already shown are not repeated);\n" +
        "a line that is not JSON is reported once, on stderr and in the page, and the rest goes on.\n" +
        "Started before the run's first episode, it waits for it. A board page (a sweep folder, with\n" +
        "or without --baseline) follows its sweep: the report's tables, forest plot and per-task numbers\n" +
        "are computed again over every complete line, as `georeplay report` does, and new shard files are\n" +
        "followed. The episodes there when serve starts play in the page; those added live do not yet\n" +
        "(`georeplay page` gives every episode its player).\n\n" +
        "A crops (detection gym) run is served the same way (its folder, episodes.jsonl or rollouts*.jsonl;\n" +
        "--dataset as for `georeplay page`): each record, there at start or appended, is verified as\n" +
        "`georeplay verify` does (every view and thumbnail re-rendered and hashed) before it is listed, a\n" +
        "finding flagged as the page flags it, and the board's numbers are `georeplay report`'s over the\n" +
        "records so far. A line that cannot be shown is one line naming file, line and field.\n\n" +
        "Only its own files are served, read-only (GET/HEAD), to requests whose Host is this server\n" +
        "(DNS rebinding is refused), with the page's strict Content-Security-Policy plus\n" +
        "connect-src 'self' for the event stream. Ctrl-C stops it and removes the temp folder (exit 130).\n\n" +
        "--once writes the page of what is there now and exits, exactly as `georeplay page` (with -o).",
    )
    .argument("<inputs...>", "eval episodes.jsonl, GRPO rollouts*.jsonl (or a run's folder of them), example-rollout folders, sweep folders, or a crops run");
  declareOptions(cmd, SERVE_OPTIONS)
    .addHelpText(
      "after",
      "\nExamples:\n" +
        "  georeplay serve run/episodes.jsonl --tasks tasks/ --panos panos/\n" +
        "  georeplay serve traces/rollouts-rank*.jsonl --tasks tasks/ --panos panos/ --port 9000\n" +
        "  georeplay serve run/episodes.jsonl --tasks tasks/ --panos panos/ --once -o run/\n" +
        "  georeplay serve crops/eval/ --dataset crops/                  # a crops run being written",
    )
    .action(
      replayAction<ServeCliOptions>(async (inputs, o) => {
        const env = await filmingEnvironment("serve", inputs);
        if (o.once) {
          if (!o.out) throw new GeoreplayError("--once writes the page as `georeplay page` does: give -o file.html or -o dir/");
          return writePage(inputs, { ...o, out: o.out });
        }
        if (o.out) throw new GeoreplayError("-o is for --once: serve keeps its page in a temp folder it removes when it stops");
        const signal = interruptSignal();
        const say = (line: string) => void process.stderr.write(`${line}\n`);
        let stopping: () => void = () => {};
        const stopped = new Promise<void>((resolve) => (stopping = resolve));
        // Each environment serves its own runs (envs/<env>/src/serve-command.ts).
        const { tasks, panos, format, jobs, dataset, title, baseline, host, port } = o;
        const running = await env.serve({ inputs, tasks, panos, format, jobs, dataset, title, baseline, host, port, pollMs: 500, idleS: o.idle, signal, say });
        // Ctrl-C: the interrupt handler awaits this cleanup (server closed, temp folder removed), then exits 130.
        const off = onInterrupt(async () => {
          await running.close();
          stopping();
        });
        signal.addEventListener("abort", () => void running.close().then(stopping), { once: true });
        say(`georeplay serve: ${running.url} (Ctrl-C to stop)`);
        try {
          await stopped;
        } finally {
          off();
        }
      }),
    );
}
