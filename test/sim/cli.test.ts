/**
 * The sim and gazebo CLI commands end to end on small inputs: a short headless flight that
 * writes PNG frames with the mask overlay, and an export whose files parse.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { PNG } from "pngjs";
import { parse as parseYaml } from "yaml";
import { command as simCommand, parseSimArgs } from "../../src/cli/commands/sim";
import { command as gazeboCommand } from "../../src/cli/commands/gazebo";
import { UsageError } from "../../src/cli/CliCommand";

function io(): { out: string[]; err: string[]; io: { out: (t: string) => void; err: (t: string) => void } } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (t) => out.push(t), err: (t) => err.push(t) } };
}

describe("drone-harness sim", () => {
  it("parses its options and rejects bad ones with the value named", () => {
    expect(parseSimArgs(["--scenario", "trees_only", "--seed", "4", "--headless", "--duration", "2.5"])).toMatchObject({ scenario: "trees_only", seed: 4, headless: true, duration: 2.5 });
    expect(() => parseSimArgs(["--seed", "-1"])).toThrow(new UsageError("--seed=-1, expected an integer in [0, 4294967295]"));
    expect(() => parseSimArgs(["--fly"])).toThrow("unknown option --fly");
  });

  it("flies headless, prints progress and writes frames with the mask overlay", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "sim-cli-"));
    const cap = io();
    try {
      const scenario = path.join(dir, "small.yaml");
      writeFileSync(scenario, "name: small\nground:\n  textureSize: 64\ncamera:\n  width: 64\n  height: 64\n");
      const code = await simCommand.run(["--scenario", scenario, "--seed", "2", "--headless", "--duration", "1.2", "--save-frames", dir, "--every", "15"], cap.io);
      const text = cap.out.join("");
      expect(code).toBe(0);
      expect(text).toMatch(/t=1\.0s pos=\(/);
      expect(text).toMatch(/sim: timeout|sim: flying|sim: goal_reached/);
      const pngs = readdirSync(dir).filter((f) => f.endsWith(".png")).sort();
      // 36 frames at 30 Hz, every 15th: frames 0, 15, 30, each as plain and mask overlay.
      expect(pngs).toEqual(["frame_00000.png", "frame_00000_mask.png", "frame_00015.png", "frame_00015_mask.png", "frame_00030.png", "frame_00030_mask.png"]);
      const png = PNG.sync.read(readFileSync(path.join(dir, "frame_00015.png")));
      expect([png.width, png.height]).toEqual([64, 64]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("drone-harness gazebo export", () => {
  it("writes world.sdf and bridge.yaml", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "gz-cli-"));
    const cap = io();
    try {
      const code = await gazeboCommand.run(["export", "--scenario", "trees_only", "--seed", "3", "--out", dir], cap.io);
      expect(code).toBe(0);
      const sdf = readFileSync(path.join(dir, "world.sdf"), "utf8");
      expect(sdf).toContain('<world name="drone_harness_trees_only_3">');
      const bridge = parseYaml(readFileSync(path.join(dir, "bridge.yaml"), "utf8")) as unknown[];
      expect(bridge).toHaveLength(7); // the 6 contract topics + /model/drone/odometry for odom_to_gps_vel
      await expect(gazeboCommand.run(["export", "--seed", "3"], cap.io)).rejects.toThrow("--out <dir> is required");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
