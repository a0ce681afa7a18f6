/**
 * The harness's reply parser: Python's `json.JSONDecoder().raw_decode(text, i)` from the LAST
 * `{` that decodes to an object with an "action" key, earlier ones after. A port of CPython's
 * C scanner (strict strings, NaN/Infinity accepted, ASCII digits), because JSON.parse cannot
 * decode a prefix and differs on what it accepts. It also says which top-level keys were
 * written as floats: Python tells `2` from `2.0` (an `id` must be an int), JavaScript cannot.
 */

export interface ParsedAction {
  action: Record<string, unknown>;
  /** Top-level keys whose value was a float literal (`2.0`, `1e3`, NaN, Infinity). */
  floatKeys: Set<string>;
}

class Fail extends Error {}

const WS = new Set([" ", "\t", "\n", "\r"]);

function setKey(o: Record<string, unknown>, k: string, v: unknown): void {
  // An own data property even for "__proto__" (as JSON.parse makes it).
  Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
}

class Scanner {
  floats = new Set<string>();
  constructor(readonly s: string) {}

  ws(i: number): number {
    while (i < this.s.length && WS.has(this.s[i])) i++;
    return i;
  }

  /** [value, end, isFloat] at i, or throws Fail. */
  value(i: number, depth: number): [unknown, number, boolean] {
    const s = this.s;
    if (i >= s.length) throw new Fail();
    const c = s[i];
    if (c === '"') {
      const [v, e] = this.string(i + 1);
      return [v, e, false];
    }
    if (c === "{") return [...this.object(i + 1, depth + 1), false];
    if (c === "[") return [...this.array(i + 1, depth + 1), false];
    if (c === "n" && s.startsWith("null", i)) return [null, i + 4, false];
    if (c === "t" && s.startsWith("true", i)) return [true, i + 4, false];
    if (c === "f" && s.startsWith("false", i)) return [false, i + 5, false];
    if (c === "N" && s.startsWith("NaN", i)) return [NaN, i + 3, true];
    if (c === "I" && s.startsWith("Infinity", i)) return [Infinity, i + 8, true];
    if (c === "-" && s.startsWith("-Infinity", i)) return [-Infinity, i + 9, true];
    const m = /^(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?/.exec(s.slice(i, i + 400));
    if (!m || m[0] === "" || m[0] === "-") throw new Fail();
    let text = m[0];
    let end = i + text.length;
    if (text.length === 400) {
      // A very long number: read the rest of its digits.
      const rest = /^[0-9.eE+-]*/.exec(s.slice(end))![0];
      const full = /^(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?/.exec(s.slice(i, end + rest.length))!;
      text = full[0];
      end = i + text.length;
    }
    const isFloat = m[2] !== undefined || m[3] !== undefined;
    return [Number(text), end, isFloat];
  }

  string(i: number): [string, number] {
    const s = this.s;
    let out = "";
    for (;;) {
      let j = i;
      while (j < s.length) {
        const code = s.charCodeAt(j);
        if (code === 0x22 || code === 0x5c || code < 0x20) break;
        j++;
      }
      out += s.slice(i, j);
      if (j >= s.length) throw new Fail();
      const c = s[j];
      if (c === '"') return [out, j + 1];
      if (c !== "\\") throw new Fail(); // a control character (strict)
      const e = s[j + 1];
      if (e === undefined) throw new Fail();
      const simple: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
      if (e in simple) {
        out += simple[e];
        i = j + 2;
        continue;
      }
      if (e !== "u") throw new Fail();
      const u = this.hex4(j + 2);
      i = j + 6;
      if (u >= 0xd800 && u <= 0xdbff && s[i] === "\\" && s[i + 1] === "u") {
        const lo = this.hex4(i + 2);
        if (lo >= 0xdc00 && lo <= 0xdfff) {
          out += String.fromCharCode(u, lo);
          i += 6;
          continue;
        }
      }
      out += String.fromCharCode(u);
    }
  }

  hex4(i: number): number {
    const h = this.s.slice(i, i + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(h)) throw new Fail();
    return parseInt(h, 16);
  }

  object(i: number, depth: number): [Record<string, unknown>, number] {
    const s = this.s;
    const o: Record<string, unknown> = {};
    i = this.ws(i);
    if (s[i] === "}") return [o, i + 1];
    for (;;) {
      if (s[i] !== '"') throw new Fail();
      const [k, e] = this.string(i + 1);
      i = this.ws(e);
      if (s[i] !== ":") throw new Fail();
      i = this.ws(i + 1);
      const [v, ve, isFloat] = this.value(i, depth);
      setKey(o, k, v);
      if (depth === 1) {
        if (isFloat) this.floats.add(k);
        else this.floats.delete(k);
      }
      i = this.ws(ve);
      if (s[i] === "}") return [o, i + 1];
      if (s[i] !== ",") throw new Fail();
      i = this.ws(i + 1);
    }
  }

  array(i: number, depth: number): [unknown[], number] {
    const s = this.s;
    const a: unknown[] = [];
    i = this.ws(i);
    if (s[i] === "]") return [a, i + 1];
    for (;;) {
      const [v, e] = this.value(i, depth);
      a.push(v);
      i = this.ws(e);
      if (s[i] === "]") return [a, i + 1];
      if (s[i] !== ",") throw new Fail();
      i = this.ws(i + 1);
    }
  }
}

/** The action the harness took from a reply, or null (unparseable). */
export function parseReply(text: unknown): ParsedAction | null {
  if (typeof text !== "string") return null;
  for (let i = text.lastIndexOf("{"); i >= 0; i = i > 0 ? text.lastIndexOf("{", i - 1) : -1) {
    const sc = new Scanner(text);
    try {
      const [obj] = sc.object(i + 1, 1);
      if (Object.prototype.hasOwnProperty.call(obj, "action")) return { action: obj, floatKeys: sc.floats };
    } catch (e) {
      if (!(e instanceof Fail) && !(e instanceof RangeError)) throw e;
    }
  }
  return null;
}
