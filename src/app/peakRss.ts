/**
 * Peak resident set size of this process in MB: VmHWM of /proc/self/status (Linux, the kernel's
 * high-water mark, so short peaks between samples count), else process.resourceUsage().maxRSS.
 */
import { readFileSync } from "node:fs";

export function peakRssMb(): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
    if (m !== null) return Number(m[1]) / 1024;
  } catch {
    // Not Linux: use the portable figure below.
  }
  return process.resourceUsage().maxRSS / 1024;
}
