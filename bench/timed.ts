/** Whole processes measured by the kernel: /usr/bin/time -v around a command (wall, CPU, peak RSS). */
import { run } from "./common.ts";

export interface Timed {
  code: number | null;
  stdout: string;
  stderr: string;
  wallS: number;
  cpuS: number;
  peakMb: number;
}

export function timedProcess(cmd: string, args: string[], cwd?: string): Timed {
  const r = run("/usr/bin/time", ["-v", cmd, ...args], cwd);
  const num = (re: RegExp) => Number(re.exec(r.stderr)?.[1] ?? NaN);
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(r.stderr);
  const wallS = wall ? Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]) : r.ms / 1000;
  return {
    code: r.code,
    stdout: r.stdout,
    stderr: r.stderr,
    wallS,
    cpuS: num(/User time \(seconds\): ([\d.]+)/) + num(/System time \(seconds\): ([\d.]+)/),
    peakMb: num(/Maximum resident set size \(kbytes\): (\d+)/) / 1024,
  };
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
