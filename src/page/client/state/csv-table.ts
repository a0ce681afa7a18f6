/**
 * Rows as CSV for any list: named columns, each read from the row. RFC 4180 quoting; a text
 * cell starting with = + - @ is prefixed with ' so a spreadsheet never runs trace text as a
 * formula (rows.ts's rule, for lists that bring their own columns).
 */
export interface CsvColumn<R> {
  name: string;
  get(r: R): string | number | boolean | null;
}

export function csvCell(v: string | number | boolean | null): string {
  const s = v === null ? "" : String(v);
  const safe = /^[=+\-@\t\r]/.test(s) && typeof v !== "number" ? "'" + s : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvTable<R>(columns: readonly CsvColumn<R>[], rows: readonly R[]): string {
  const lines = [columns.map((c) => c.name).join(",")];
  for (const r of rows) lines.push(columns.map((c) => csvCell(c.get(r))).join(","));
  return lines.join("\r\n") + "\r\n";
}
