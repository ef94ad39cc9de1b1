/**
 * Lock-step rig for node tests on the real EmbeddedGraph: a "sim" node publishes /clock every
 * 10 ms of sim time, the camera at 30 Hz (every 33 ms... on the 10 ms grid: every 30 ms here,
 * i.e. 33.3 Hz), the IMU at 100 Hz and GPS fix + velocity at 10 Hz; each sensor can be stopped.
 * Every node under test runs with use_sim_time = true.
 */
import { EmbeddedGraph, type Publisher } from "../../src/ros/graph";
import { nsToStamp } from "../../src/util/time";
import { activateIfLifecycle, type LaunchedNode, type NodeFactory } from "../../src/ros/launch/NodeFactory";
import type { ParameterValue } from "../../src/ros/graph/types";
import { MS, fix, image, imu, vel } from "./fixtures";

export type SensorName = "camera" | "imu" | "gps";

export class SimRig {
  readonly graph = new EmbeddedGraph({ stderrLevel: "silent" });
  nowNs = 0n;
  readonly enabled: Record<SensorName, boolean> = { camera: true, imu: true, gps: true };
  /** The camera frame published at `t` (default: the fixtures' 256x256 image). */
  frame: (t: bigint) => ReturnType<typeof image> = (t) => image(t);
  private readonly sim = this.graph.createNode("sim");
  private readonly clock: Publisher<{ clock: { sec: number; nanosec: number } }> = this.sim.createPublisher("rosgraph_msgs/msg/Clock", "/clock");
  private readonly cam: Publisher = this.sim.createPublisher("sensor_msgs/msg/Image", "/camera/image_raw", { qos: { history: "keep_last", depth: 5, reliability: "best_effort", durability: "volatile" } });
  private readonly imuPub: Publisher = this.sim.createPublisher("sensor_msgs/msg/Imu", "/imu/data");
  private readonly fixPub: Publisher = this.sim.createPublisher("sensor_msgs/msg/NavSatFix", "/gps/fix");
  private readonly velPub: Publisher = this.sim.createPublisher("geometry_msgs/msg/TwistStamped", "/gps/vel");
  readonly launched: LaunchedNode[] = [];

  async add(factory: NodeFactory, name: string, params: Record<string, ParameterValue> = {}, activate = true): Promise<LaunchedNode> {
    const l = await factory(this.graph, { name, namespace: "/", parameterOverrides: { use_sim_time: true, ...params }, remappings: {} });
    if (activate) await activateIfLifecycle(l);
    this.launched.push(l);
    return l;
  }

  /** Records every message on `topic` with the sim time it was received. */
  record<T>(topic: string, type: string): Array<{ atNs: bigint; msg: T }> {
    const out: Array<{ atNs: bigint; msg: T }> = [];
    this.graph.createNode(`rec_${topic.replace(/\W/g, "_")}`).createSubscription<T>(type, topic, { qos: { history: "keep_last", depth: 100, reliability: "reliable", durability: "volatile" } }, (msg) =>
      out.push({ atNs: this.nowNs, msg }),
    );
    return out;
  }

  /** Advances sim time in 10 ms steps to `toNs`, publishing the enabled sensors on their schedule. */
  runTo(toNs: bigint): void {
    while (this.nowNs < toNs) {
      this.nowNs += 10n * MS;
      const t = this.nowNs;
      this.clock.publish({ clock: nsToStamp(t) });
      this.graph.spinUntilIdle();
      if (this.enabled.imu) this.imuPub.publish(imu(t));
      if (this.enabled.gps && t % (100n * MS) === 0n) {
        this.fixPub.publish(fix(t));
        this.velPub.publish(vel(t));
      }
      if (this.enabled.camera && t % (30n * MS) === 0n) this.cam.publish(this.frame(t));
      this.graph.spinUntilIdle();
    }
  }

  async shutdown(): Promise<void> {
    for (const l of this.launched) await l.stop();
    await this.graph.shutdown();
  }
}
