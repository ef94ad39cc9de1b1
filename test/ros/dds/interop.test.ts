/**
 * Interoperability with a peer that shares no code with us: a C program built here from an IDL of
 * the ROS 2 types (idlc) against Cyclone DDS's C API (gcc -lddsc). It reads our /cmd_vel and
 * camera image and answers on /peer/chatter with a std_msgs/String naming what it decoded, so
 * both directions are checked, on the default domain and on a ROS_DOMAIN_ID that it sets.
 */
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { DdsGraph, LOOPBACK_CONFIG, loopbackConfig } from "../../../src/ros/dds";
import { QOS_DEFAULT, QOS_SENSOR_DATA } from "../../../src/ros/graph";
import type { Image } from "../../../nodes/common/sensors/sensorTypes";
import { buildPeer, describeWithDds } from "./ddsTools";


/** The peer's checksum (peer.c): sum = (sum * 31 + byte) mod 2^24, over the image data. */
function checksum(data: Uint8Array): number {
  let sum = 0;
  for (const b of data) sum = (sum * 31 + b) % 0x1000000;
  return sum;
}

function testImage(width: number, height: number): Image {
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < data.length; i++) data[i] = (i * 7 + (i >> 5)) & 0xff;
  return { header: { stamp: { sec: 12, nanosec: 34 }, frame_id: "camera" }, height, width, encoding: "rgb8", is_bigendian: 0, step: width * 3, data };
}

function startPeer(exe: string, domain: number, config: string): { child: ChildProcess; stdout: string[]; exited: Promise<number | null>; ready: Promise<void> } {
  const child = spawn(exe, [String(domain), "20"], { env: { ...process.env, CYCLONEDDS_URI: config }, stdio: ["ignore", "pipe", "pipe"] });
  const stdout: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout.push(chunk.toString());
      if (stdout.join("").includes("peer ready")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`peer exited (${String(code)}) before it was ready: ${stdout.join("")}`)));
  });
  child.stderr?.on("data", (chunk: Buffer) => stdout.push(chunk.toString()));
  return { child, stdout, exited, ready };
}

describeWithDds("DDS interoperability with a C peer (idlc + gcc + libddsc)", true, () => {
  let exe = "";
  beforeAll(() => {
    exe = buildPeer();
  });

  it.each([
    ["the default domain (0)", undefined, LOOPBACK_CONFIG, 64, 48],
    ["ROS_DOMAIN_ID=42", 42, LOOPBACK_CONFIG, 64, 48],
    // Our image goes out in 62,000 B fragments (LOOPBACK_CONFIG); the peer keeps Cyclone's sizes.
    ["the default domain, a peer with Cyclone's default sizes and a 256x256 image", undefined, loopbackConfig(false), 256, 256],
  ])("on %s: the peer decodes our /cmd_vel and image, and we decode its String", async (_label, domain, peerConfig, width, height) => {
    const saved = process.env["ROS_DOMAIN_ID"];
    if (domain === undefined) delete process.env["ROS_DOMAIN_ID"];
    else process.env["ROS_DOMAIN_ID"] = String(domain);
    const peer = startPeer(exe, domain ?? 0, peerConfig);
    let graph: DdsGraph | undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      await peer.ready;
      graph = new DdsGraph({ stderrLevel: "silent" });
      expect(graph.participant.domainId).toBe(domain ?? 0);
      graph.spin();
      const node = graph.createNode("interop_test");
      const cmd = node.createPublisher("geometry_msgs/msg/TwistStamped", "/cmd_vel", { qos: QOS_DEFAULT });
      const cam = node.createPublisher<Image>("sensor_msgs/msg/Image", "/camera/image_raw", { qos: QOS_SENSOR_DATA });
      const image = testImage(width, height);
      const heard = new Promise<string>((resolve) => {
        node.createSubscription<{ data: string }>("std_msgs/msg/String", "/peer/chatter", { qos: QOS_DEFAULT }, (m) => resolve(m.data));
      });
      // Published until the answer comes: discovery takes a few hundred ms and the image is best effort.
      timer = setInterval(() => {
        cmd.publish({ header: { stamp: { sec: 7, nanosec: 8 }, frame_id: "base_link" }, twist: { linear: { x: 1.25, y: 0, z: 0 }, angular: { x: 0, y: 0, z: -0.5 } } });
        cam.publish(image);
      }, 50);
      const text = await heard;
      expect(text).toBe(`peer saw cmd_vel x=1.250 wz=-0.500 frame=base_link image ${width}x${height} rgb8 bytes=${width * height * 3} sum=${checksum(image.data)}`);
      expect(cmd.subscriptionCount()).toBeGreaterThanOrEqual(1);
      clearInterval(timer);
      expect(await peer.exited).toBe(0);
      expect(peer.stdout.join("")).toContain("cmd_vel x=1.250 wz=-0.500 frame=base_link sec=7");
    } finally {
      if (timer !== undefined) clearInterval(timer);
      if (peer.child.exitCode === null) peer.child.kill();
      await graph?.shutdown();
      if (saved === undefined) delete process.env["ROS_DOMAIN_ID"];
      else process.env["ROS_DOMAIN_ID"] = saved;
    }
  }, 20_000);
});
