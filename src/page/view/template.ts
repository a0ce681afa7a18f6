/**
 * What every environment's page shares around its data: the strict Content-Security-Policy (each
 * page's HTML is its environment's: envs/<env>/src/page/).
 */
import { cspHash } from "../escape.ts";

/**
 * The page's policy: nothing but its own pinned script and style, and images
 * from data: URLs. The folder form (form "folder") adds the files beside it:
 * its data scripts run only because the pinned script inserts them
 * ('strict-dynamic': no script named by address, no inline script but the
 * pinned one), and its views are images of its own origin (file:// included).
 */
export function pageCsp(css: string, script: string, form: "file" | "folder"): string {
  return [
    "default-src 'none'",
    form === "folder" ? "img-src data: 'self'" : "img-src data:",
    "font-src data:",
    `style-src ${cspHash(css)}`,
    form === "folder" ? `script-src ${cspHash(script)} 'strict-dynamic'` : `script-src ${cspHash(script)}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}
