/**
 * The options each environment-dispatched command hands its environment (envs/environment.ts):
 * declared here, below both the commands that parse them and the environments that use them.
 */
import type { Size } from "../../film/size.ts";
import type { InputOptions, RunOptions } from "./shared.ts";

export interface VerifyCliOptions extends InputOptions, RunOptions {
  viewSize: number;
  dataset?: string;
  shard?: string;
  limit?: number;
}

export interface FramesCliOptions extends InputOptions, RunOptions {
  episode: string;
  out?: string;
  fps: number;
  view: number;
  viewSize: number;
  unverified?: boolean;
  publicDir: string;
  size: Size;
  dataset?: string;
}

export interface ReportCliOptions {
  baseline: string;
  /** Whether --baseline was given (geoeval's default "base" pairs only when such an arm exists). */
  baselineGiven: boolean;
  legacy?: boolean;
  json?: boolean;
}

export interface PageCliOptions extends InputOptions, RunOptions {
  out: string;
  imageSize: number;
  title?: string;
  baseline?: string;
  maxMb?: number;
  exactZoomsMb?: number;
  player: boolean;
  partial?: boolean;
  dataset?: string;
}
