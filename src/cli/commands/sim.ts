/**
 * `drone-harness sim --scenario <yaml|name> --seed N --headless [--duration s] [--save-frames dir]
 * [--perturbed] [--every n]`: flies the embedded simulator with the scripted pilot and prints
 * progress; --save-frames writes PNGs of the camera with the ground-truth mask overlaid.
 * The flight itself is sim/runHeadless.ts (reused by the closed-loop job).
 */
import { mkdirSync } from "node:fs";
import * as path from "node:path";
import { UsageError, type CliCommand } from "../CliCommand";
import { loadScenarioFile } from "../../../sim/io/loadScenarioFile";
import { writeFramePng } from "../../../sim/io/writePng";
import { runHeadless } from "../../../sim/runHeadless";

export type SimArgs = { scenario: string; seed: number; headless: boolean; duration?: number; saveFrames?: string; every: number; perturbed: boolean };

export function parseSimArgs(args: string[]): SimArgs {
  const out: SimArgs = { scenario: "default", seed: 0, headless: false, every: 1, perturbed: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (): string => {
      const v = args[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      return v;
    };
    switch (a) {
      case "--scenario":
        out.scenario = value();
        break;
      case "--seed": {
        const v = value();
        const n = Number(v);
        if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new UsageError(`--seed=${v}, expected an integer in [0, 4294967295]`);
        out.seed = n;
        break;
      }
      case "--duration": {
        const v = value();
        const n = Number(v);
        if (!(n > 0) || !Number.isFinite(n)) throw new UsageError(`--duration=${v}, expected seconds > 0`);
        out.duration = n;
        break;
      }
      case "--every": {
        const v = value();
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1) throw new UsageError(`--every=${v}, expected an integer >= 1`);
        out.every = n;
        break;
      }
      case "--save-frames":
        out.saveFrames = value();
        break;
      case "--headless":
        out.headless = true;
        break;
      case "--perturbed":
        out.perturbed = true;
        break;
      default:
        throw new UsageError(`unknown option ${a}`);
    }
  }
  return out;
}

export const command: CliCommand = {
  usage: "drone-harness sim --scenario <yaml|name> --seed N --headless [--duration s] [--save-frames dir] [--every n] [--perturbed]",
  run: async (args, io) => {
    const a = parseSimArgs(args);
    if (!a.headless) throw new UsageError("only --headless runs are available from this command (the closed-loop run with the nodes is `npm start`)");
    const scenario = loadScenarioFile(a.scenario);
    if (a.saveFrames !== undefined) mkdirSync(a.saveFrames, { recursive: true });
    const dir = a.saveFrames;
    io.out(`sim: scenario ${scenario.name}, seed ${a.seed}${a.perturbed ? " (perturbed)" : ""}\n`);
    const summary = runHeadless({
      scenario,
      seed: a.seed,
      perturbed: a.perturbed,
      duration_s: a.duration,
      onProgress: (line) => io.out(`${line}\n`),
      onFrame:
        dir === undefined
          ? undefined
          : (index, rgb, mask, sim) => {
              if (index % a.every !== 0) return;
              const name = `frame_${String(index).padStart(5, "0")}`;
              writeFramePng(path.join(dir, `${name}.png`), rgb, sim.camera.width, sim.camera.height);
              writeFramePng(path.join(dir, `${name}_mask.png`), rgb, sim.camera.width, sim.camera.height, mask);
            },
    });
    io.out(
      `sim: ${summary.status} after ${summary.simTime_s.toFixed(2)} s sim time, ${summary.frames} frames, ${summary.distance_m.toFixed(1)} m flown, ` +
        `min clearance ${summary.minClearance_m.toFixed(2)} m, ${(summary.simTime_s / (summary.wallTime_ms / 1000)).toFixed(1)} sim s per wall s\n`,
    );
    if (summary.collision !== undefined) {
      const c = summary.collision;
      io.out(`sim: collision with class ${c.cls} object ${c.objectId} at t=${c.time_s.toFixed(2)} s (${c.position.map((v) => v.toFixed(2)).join(", ")})\n`);
    }
    return summary.status === "collided" ? 1 : 0;
  },
};
