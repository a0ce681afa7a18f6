/** Turns zod issues into `field.path: expected X, got Y` lines a user can act on. */
import type { z } from "zod";
import { describeValue } from "./errors.ts";

export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else out += out === "" ? String(p) : `.${String(p)}`;
  }
  return out || "(record)";
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const p of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p as string];
  }
  return cur;
}

function expectation(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return `expected ${issue.expected === "int" ? "an integer" : issue.expected}`;
    case "too_small":
      return `expected ${issue.origin === "array" ? "at least " + String(issue.minimum) + " items" : (issue.inclusive ? ">= " : "> ") + String(issue.minimum)}`;
    case "too_big":
      return `expected ${issue.origin === "array" ? "at most " + String(issue.maximum) + " items" : (issue.inclusive ? "<= " : "< ") + String(issue.maximum)}`;
    case "invalid_value":
      return `expected ${issue.values.map((v) => JSON.stringify(v)).join(" or ")}`;
    case "invalid_format":
      return `expected ${issue.message ?? issue.format}`;
    default:
      return `expected ${issue.message}`;
  }
}

/** One line per issue (at most `max`), each naming the field path, what was expected and what was found. */
export function formatIssues(error: z.ZodError, input: unknown, max = 3): string[] {
  const lines = error.issues.slice(0, max).map((issue) => {
    const got = valueAt(input, issue.path);
    const exp = expectation(issue);
    // Custom refinements already say everything in their message.
    if (issue.code === "custom") return `${formatPath(issue.path)}: ${issue.message}`;
    return `${formatPath(issue.path)}: ${exp}, got ${describeValue(got)}`;
  });
  if (error.issues.length > max) lines.push(`(and ${error.issues.length - max} more problems)`);
  return lines;
}
