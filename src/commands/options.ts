/** Option parsers shared by the commands: they reject bad values with a message, never a stack. */
import { InvalidArgumentError } from "commander";

export function positiveInt(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError(`expected a whole number >= 1, got ${JSON.stringify(text)}`);
  return n;
}
