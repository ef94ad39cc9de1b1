/**
 * `replay <bag> --launch launch/nodes.launch.xml --compare /harness/obstacles,/cmd_vel` must test
 * perception (issue 16 item 13): the inputs are the sensor topics by default (never a recorded
 * intermediate output such as /harness/student_output, which would stand in for the perception
 * node), the golden bag's comparison passes from the sensors alone (with the recorded launch's
 * ground altitude, metadata.yaml custom_data launch_parameters), and a perception node that cannot
 * start (model_dir pointing nowhere) makes it fail. Real nodes and the committed models.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { NODE_REGISTRY } from "../../nodes";
import { runReplay } from "../../src/cli/commands/replay";

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, "../..");
const GOLDEN = path.join(ROOT, "test/fixtures/bags/pipeline-golden");
const SENSORS = "/goal, /imu/data, /gps/fix, /gps/vel, /camera/image_raw, /camera/camera_info";

async function replay(extra: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runReplay([GOLDEN, "--launch", "launch/nodes.launch.xml", "--compare", "/harness/obstacles,/cmd_vel", ...extra], { out: (t) => out.push(t), err: (t) => err.push(t) }, { registry: NODE_REGISTRY, packageRoot: ROOT });
  return { code, out: out.join(""), err: err.join("") };
}

describe("replay of the golden bag through launch/nodes.launch.xml", () => {
  let dir = "";
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "replay-perception-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("plays the sensors only and matches the recording from them", async () => {
    const r = await replay([]);
    expect(r.err).toContain(`replay: inputs: 6 of 21 recorded topics: ${SENSORS}\n`);
    expect(r.err).toContain("replay: not playing /harness/student_output, /harness/obstacles_raw, /harness/policy, /harness/correction, /harness/texture_gain, /cmd_vel_raw: node outputs");
    expect(r.err).toContain("custom_data launch_parameters): use_first_fix_as_home:=false home_altitude_m:=488.0");
    expect(r.out).toContain("/harness/obstacles 4 recorded / 4 replayed, /cmd_vel 5 recorded / 5 replayed");
    expect(r.out).toContain("outputs match");
    expect(r.code).toBe(0);
  });

  it("fails when the perception node cannot start (model_dir pointing nowhere)", async () => {
    const config = path.join(dir, "config");
    cpSync(path.join(ROOT, "config"), config, { recursive: true });
    const perception = path.join(config, "perception.yaml");
    const text = readFileSync(perception, "utf8");
    expect(text).toMatch(/^ {4}model_dir: models\/coevo\/student-r2$/m);
    writeFileSync(perception, text.replace(/^ {4}model_dir: models\/coevo\/student-r2$/m, `    model_dir: ${path.join(dir, "no-models")}`));
    const r = await replay([`config_dir:=${config}`]);
    // The recorded perception outputs are not played in its place.
    expect(r.err).toContain(`replay: inputs: 6 of 21 recorded topics: ${SENSORS}\n`);
    expect(r.out).toContain("/harness/obstacles 4 recorded / 0 replayed");
    expect(r.out).toContain("outputs differ");
    expect(r.code).toBe(1);
  });
});
