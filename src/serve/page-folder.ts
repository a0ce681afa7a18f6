/**
 * The served page: the folder form `page -o DIR/` writes, marked live (an
 * environment's page: what it holds is the environment's). The mark is a
 * <meta name="georeplay-live"> (the client opens its event stream only
 * with it, so a page saved from the server and opened from disk stays a
 * static page) and the CSP gains exactly `connect-src 'self'`, which the
 * event stream needs.
 */

/** The live mark; `server` names this server's run of the page (tabs of one server share one stream). */
export const liveMeta = (server: string): string => `<meta name="georeplay-live" content="${server.replace(/[^A-Za-z0-9-]/g, "")}">`;

/** index.html with the live mark and `connect-src 'self'` added to its policy (pure). */
export function markLive(html: string, server = "serve"): string {
  const csp = /(<meta http-equiv="Content-Security-Policy" content=")([^"]*)(">)/;
  if (!csp.test(html)) throw new Error("the built page has no Content-Security-Policy to extend");
  return html.replace(csp, (_m, a: string, policy: string, b: string) => `${a}${policy}; connect-src &#39;self&#39;${b}\n${liveMeta(server)}`);
}

/** The JSON text of the page's `<script type="application/json" id=...>` element, if any (pure). */
export function jsonElement(html: string, id: string): string | null {
  const open = `<script type="application/json" id="${id}">`;
  const at = html.indexOf(open);
  if (at === -1) return null;
  const end = html.indexOf("</script>", at);
  return html.slice(at + open.length, end);
}
