/**
 * The environments' public APIs, as the package's entry point (src/index.ts) gives them. GeoGuesser's
 * is the package's API from before there were environments, so it stays flat (`import { verify }
 * from "georeplay"`); an environment that adds one would export it under its name.
 */
export * from "./geoguesser/api.ts";
