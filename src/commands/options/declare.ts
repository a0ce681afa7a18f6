/**
 * Options as data: each command declares its options once, as a table keyed by the
 * fields of its typed options object (vitest's CLIOptions<CliOptions> idea), and gets
 * back that object, typed. The table is the one place an option's flags, help, parser,
 * choices and default live; a command that extends another (render's batches) spreads
 * its table instead of finding options by name and rewriting them.
 */
import { Command, InvalidArgumentError, Option } from "commander";

export interface OptionDef<T> {
  /** Commander's flags, e.g. "-o, --out <file>", "--poster [file.png]", "--no-progress". */
  flags: string;
  description: string;
  /** Text to value; throw InvalidArgumentError (or any Error: its message becomes the usage error). Repeated options get the previous value. */
  parse?: (text: string, previous: T | undefined) => T;
  choices?: readonly string[];
  default?: T;
  /** How the default reads in --help (objects need one). */
  defaultLabel?: string;
  required?: boolean;
}

/** A command's option table: one definition for every field of its options type. */
export type OptionDefs<O> = { [K in keyof O]-?: OptionDef<Exclude<O[K], undefined>> };

/** Adds every option of the table; a key that is not the attribute commander derives from its flags is a programming error. */
export function declareOptions<O>(cmd: Command, defs: OptionDefs<O>): Command {
  for (const [key, def] of Object.entries(defs) as [string, OptionDef<unknown>][]) {
    const opt = new Option(def.flags, def.description);
    if (opt.attributeName() !== key) throw new Error(`option table: ${def.flags} is read as "${opt.attributeName()}", declared as "${key}"`);
    if (def.choices) opt.choices(def.choices);
    if (def.parse) {
      const parse = def.parse;
      opt.argParser((text: string, previous: unknown) => {
        try {
          return parse(text, previous as never);
        } catch (e) {
          if (e instanceof InvalidArgumentError) throw e;
          throw new InvalidArgumentError((e as Error).message);
        }
      });
    }
    if (def.default !== undefined) opt.default(def.default, def.defaultLabel);
    if (def.required) opt.makeOptionMandatory(true);
    cmd.addOption(opt);
  }
  return cmd;
}

/** The parsed options, typed by the command's table. */
export function optionsOf<O>(cmd: Command): O {
  return cmd.opts() as O;
}

/** Whether the user gave this option (not its default). */
export function given<O>(cmd: Command, key: keyof O & string): boolean {
  const source = cmd.getOptionValueSource(key);
  return source !== undefined && source !== "default";
}
