/**
 * The program loads only the command a command line names (the others' import graphs cost a
 * short verify a third of its CPU); anything else loads every command, so help and commander's
 * suggestions still list them all.
 */
import { describe, expect, it } from "vitest";
import { commandsFor } from "../../src/commands/program.ts";

const ALL = ["verify", "frames", "page", "serve", "render", "report", "groups", "schema"];

describe("commandsFor", () => {
  it("a named command alone, whatever follows it", () => {
    for (const name of ALL) expect(commandsFor([name, "run/", "--json"])).toEqual([name]);
    expect(commandsFor(["verify", "--help"])).toEqual(["verify"]);
  });

  it("every command, in help order, for no command, help, options or a typo", () => {
    for (const args of [[], ["help"], ["help", "verify"], ["--help"], ["--version"], ["verfy", "x"], ["toString"], ["__proto__"]])
      expect(commandsFor(args)).toEqual(ALL);
  });
});
