/**
 * The page client's entry point, bundled by esbuild into the page's one
 * inline script (pinned by its hash in the CSP; see ../view/client.ts).
 * A board page (a sweep or board folder, or --baseline) carries its board data; any other
 * page is a run page.
 *
 * Layout: state/ holds the page state (the store, the address, the list's
 * rows, search and filter expression: pure and tested in Node); app/ holds
 * the views, one folder per feature (list, detail, compare, tasks), each
 * rendering from the store; app/run.ts and app/board.ts compose them.
 *
 * Rendering is lazy: lists render at once, an episode's timeline only when
 * it is opened, and each image only when its turn scrolls into view.
 */
import { startRun } from "./app/run.ts";
import { startBoard } from "./app/board.ts";

if (document.getElementById("gr-board-data")) startBoard();
else startRun();
