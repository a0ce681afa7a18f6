/**
 * How a page carries its episodes' videos (browser-safe: the builder and the client read it): inline (the one-file form), or in the folder form as
 * data files, `data/play-<n>.js` of PLAYS_PER_FILE episodes each, read on a Play (a board of 10,000
 * episodes would otherwise put ~75 MB of props in index.html before its first screen). The files
 * follow the list as written: row i's props are in data/play-<floor(i / perFile)>.js.
 */
export type CropsPlayTable = { entries: Record<string, string> } | { perFile: number };

export const PLAY_KIND = "play";
export const PLAYS_PER_FILE = 200;
