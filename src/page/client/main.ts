/**
 * The page client's entry point, bundled by esbuild into the page's one
 * inline script (pinned by its hash in the CSP; see ../view/client.ts).
 * A board page (built with --baseline) carries its board data; any other
 * page is a run page.
 *
 * Rendering is lazy: lists render at once, an episode's timeline only when
 * it is opened, and each image only when its turn scrolls into view.
 */
import { startRun } from "./run.ts";
import { startBoard } from "./board.ts";

if (document.getElementById("gr-board-data")) startBoard();
else startRun();
