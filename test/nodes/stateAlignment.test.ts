import { join } from "node:path";

import * as tf from "@tensorflow/tfjs";

import { StudentDetector } from "../../nodes/common/models/StudentDetector";
import type { TwistStamped } from "../../nodes/common/sensors/sensorTypes";
import { STUDENT_OUTPUT_TYPE, type StudentOutputMsg } from "../../nodes/common/models/studentOutputMsg";
import { createPerceptionNode } from "../../nodes/perception";
import { createSimNode, type SimLaunchedNode } from "../../nodes/sim";
import { ACTIONS, DEFAULT_ACTION_LIMITS, actionToCommand, type BodyVelocityCommand } from "../../src/harness/actions";
import { SimEnvironment } from "../../src/harness/data/simEnvironment";
import { STATE_DIM } from "../../src/harness/models/stateVector";
import { Student } from "../../src/harness/models/Student";
import { EmbeddedGraph } from "../../src/ros/graph";
import { activateIfLifecycle } from "../../src/ros/launch/NodeFactory";
import type { ParameterValue } from "../../src/ros/graph/types";
import type { Scenario } from "../../sim";
import { loadScenarioFile } from "../../sim/io/loadScenarioFile";
import { splitOfSeed } from "../../sim/splits";

/**
 * The perception node's state vector (drone_harness_msgs/StudentOutput.state) against the one
 * the training code's simulator adapter (src/harness/data/simEnvironment.ts) computes for the
 * same flight: the sim node and the adapter fly the same scenario, seed and action sequence (one
 * action per 0.25 s control period), in lock-step. Both integrate in 5 ms sub-steps (the IMU
 * period) with the same wind stream, so the trajectories are the same; the sensors' white noise
 * is set to zero because the two consume their noise streams at different rates (the node reads
 * the IMU at 200 Hz and GPS at 10 Hz, the adapter once per control step), which would make the
 * comparison statistical. IMU biases (the same for the same seed) stay on.
 *
 * Compared at the camera frames that fall on control-step times (30 Hz frames land on
 * t = 0.5 s, 1.0 s, ...). Tolerance 1e-4 per normalised component: float32 state, altitude
 * through WGS84 and back (sim/geodesy.ts, centimetre-exact near the origin).
 */
const SEED = 1;
const PERIOD_S = 0.25;
const SIZE = 64;
// cruise, climb, yaw left, descend, slow, yaw right... : every state component moves.
const PLAN: (typeof ACTIONS)[number][] = ["cruise", "cruise", "climb", "climb", "yaw_left", "cruise", "descend", "yaw_right", "slow", "cruise", "climb", "hover"];

function scenario(noise: boolean): Scenario {
  const s = loadScenarioFile("default");
  s.camera.width = SIZE;
  s.camera.height = SIZE;
  if (noise) return s;
  s.imu.accelNoiseStd_m_s2 = 0;
  s.imu.gyroNoiseStd_rad_s = 0;
  s.gps.horizontalStd_m = 0;
  s.gps.verticalStd_m = 0;
  s.gps.velocityStd_m_s = 0;
  return s;
}

/** Training's state after each control step k (index k, k = 0 before the first action). */
function adapterStates(noise = false): Float32Array[] {
  const env = new SimEnvironment(scenario(noise), SEED, splitOfSeed(SEED), false, { controlPeriod_s: PERIOD_S });
  const out = [new Float32Array(STATE_DIM)];
  env.sensorState(out[0]!);
  for (const a of PLAN) {
    expect(env.step(ACTIONS.indexOf(a))).toEqual({ type: "running" });
    const s = new Float32Array(STATE_DIM);
    env.sensorState(s);
    out.push(s);
  }
  return out;
}

/** The node's StudentOutput.state per frame stamp (ns), flying PLAN through sim + perception. */
async function nodeStates(perceptionParams: Record<string, ParameterValue>, noise = false): Promise<Map<bigint, Float32Array>> {
  const graph = new EmbeddedGraph({ stderrLevel: "silent" });
  const states = new Map<bigint, Float32Array>();
  graph.createNode("rec").createSubscription<StudentOutputMsg>(STUDENT_OUTPUT_TYPE, "/harness/student_output", {}, (m) => {
    states.set(BigInt(m.header.stamp.sec) * 1_000_000_000n + BigInt(m.header.stamp.nanosec), Float32Array.from(m.state));
  });
  const student = new Student({ channels: [4, 4, 4, 4], policyHidden: [8, 8], seed: 5 });
  // Perception first, so it receives the sim's t = 0 messages (published when the sim starts).
  const perception = await createPerceptionNode({ createDetector: () => new StudentDetector(student, SIZE, SIZE) })(graph, {
    name: "perception", namespace: "/", remappings: {},
    parameterOverrides: { use_sim_time: true, expected_width: SIZE, expected_height: SIZE, model_dir: join(__dirname, "../../models"), ...perceptionParams },
  });
  await activateIfLifecycle(perception);
  const sim = (await createSimNode({ loadScenario: () => scenario(noise) })(graph, {
    name: "sim", namespace: "/", remappings: {},
    parameterOverrides: { mode: "lockstep", seed: SEED, publish_ground_truth: false },
  })) as SimLaunchedNode;
  graph.spinUntilIdle();
  const cmdPub = graph.createNode("pilot").createPublisher<TwistStamped>("geometry_msgs/msg/TwistStamped", "/cmd_vel");
  const cmd: BodyVelocityCommand = { vx_m_s: 0, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 };
  const ticksPerStep = Math.round(PERIOD_S / sim.controller.tick_s);
  for (const a of PLAN) {
    actionToCommand(ACTIONS.indexOf(a), DEFAULT_ACTION_LIMITS, cmd);
    const t = sim.controller.timeNs();
    cmdPub.publish({
      header: { stamp: { sec: Number(t / 1_000_000_000n), nanosec: Number(t % 1_000_000_000n) }, frame_id: "base_link" },
      twist: { linear: { x: cmd.vx_m_s, y: cmd.vy_m_s, z: cmd.vz_m_s }, angular: { x: 0, y: 0, z: cmd.yawRate_rad_s } },
    });
    graph.spinUntilIdle();
    for (let i = 0; i < ticksPerStep; i++) {
      sim.controller.tick();
      graph.spinUntilIdle();
    }
  }
  expect(graph.callbackErrors).toBe(0);
  expect(sim.controller.sim.status).toBe("flying");
  await perception.stop();
  await sim.stop();
  await graph.shutdown();
  student.dispose();
  return states;
}

/** Largest |node - training| per component group over the frames on control-step times. */
function compare(train: Float32Array[], node: Map<bigint, Float32Array>) {
  const worst = { altitude: 0, velocity: 0, imu: 0 };
  let frames = 0;
  for (let k = 2; k < train.length; k += 2) {
    const got = node.get(BigInt(k) * 250_000_000n);
    expect(got).toBeDefined();
    const want = train[k]!;
    for (let j = 0; j < STATE_DIM; j++) {
      const d = Math.abs(got![j]! - want[j]!);
      const group = j === 0 ? "altitude" : j < 4 ? "velocity" : "imu";
      worst[group] = Math.max(worst[group], d);
    }
    frames++;
  }
  return { worst, frames };
}

describe("state vector: perception node vs the training code's simulator adapter", () => {
  beforeAll(async () => {
    await tf.setBackend("cpu");
  });

  it("matches within 1e-4 per normalised component with the sim launch's ground altitude and the models' state period", async () => {
    const train = adapterStates();
    // The flight moves every group (so the comparison is not of zeros): IMU differences, climb, speed.
    const moving = train.slice(2).some((s) => s.slice(4).some((v) => Math.abs(v) > 0.01));
    expect(moving).toBe(true);
    // What launch/sim.launch.xml sets: ground = the scenario's GPS origin altitude (sim/scenarios/default.yaml gps.originAlt_m).
    const node = await nodeStates({ use_first_fix_as_home: false, home_altitude_m: 488 });
    const { worst, frames } = compare(train, node);
    expect(frames).toBe(PLAN.length / 2);
    expect(worst.altitude).toBeLessThan(1e-4);
    expect(worst.velocity).toBeLessThan(1e-4);
    expect(worst.imu).toBeLessThan(1e-4);
  });

  it("with the default sensor noise, differs only by the noise (bounds of 5 sigma of the difference)", async () => {
    const train = adapterStates(true);
    const node = await nodeStates({ use_first_fix_as_home: false, home_altitude_m: 488 }, true);
    const { worst } = compare(train, node);
    const sc = loadScenarioFile("default");
    // Altitude: the node reads the GPS fix (vertical std 1.5 m), training the true height: 5 * 1.5 m / 25 m per unit.
    expect(worst.altitude).toBeLessThan((5 * sc.gps.verticalStd_m) / 25);
    // Velocity: independent GPS noise on both sides (std 0.1 m/s each), 10 m/s per unit.
    expect(worst.velocity).toBeLessThan((5 * Math.SQRT2 * sc.gps.velocityStd_m_s) / 10);
    // IMU differences: two independent samples per side; accel 10 m/s^2 per unit dominates the gyro's 2 rad/s.
    expect(worst.imu).toBeLessThan(Math.max((5 * 2 * sc.imu.accelNoiseStd_m_s2) / 10, (5 * 2 * sc.imu.gyroNoiseStd_rad_s) / 2));
  });

  it("would differ with the old definitions (altitude above the first fix, IMU differences per camera frame)", async () => {
    const train = adapterStates();
    const node = await nodeStates({ use_first_fix_as_home: true, state_period_s: 1 / 30 });
    const { worst } = compare(train, node);
    // The drone starts 6-14 m up (path.altitude_m): at least 6 m / 25 m per unit off.
    expect(worst.altitude).toBeGreaterThan(0.2);
    expect(worst.imu).toBeGreaterThan(0.01);
  });
});
