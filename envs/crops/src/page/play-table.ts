/**
 * How a page carries its episodes' videos (browser-safe: the builder and the client read it): inline (the one-file form), or in the folder form as
 * data files, `data/play-<n>.js` of PLAYS_PER_FILE episodes each, read on a Play (a board of 10,000
 * episodes would otherwise put ~75 MB of props in index.html before its first screen).
 */
export type CropsPlayTable = { entries: Record<string, string> } | { files: Record<string, number> };

export const PLAY_KIND = "play";
export const PLAYS_PER_FILE = 200;
