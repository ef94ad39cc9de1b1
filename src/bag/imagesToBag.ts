/**
 * A folder of photographs as a rosbag2 camera stream (issue 14 item 4, `bag from-images`): each
 * photo becomes a sensor_msgs/msg/Image (rgb8, its own size) and a sensor_msgs/msg/CameraInfo
 * (same header, same size) at a fixed rate, so the nodes can be replayed on real imagery
 * (`replay`, `bag play`). The photos carry no calibration: K is an ideal pinhole of the given
 * horizontal field of view (sim/Camera.ts makeCamera, centred, D = 0), stated in metadata.yaml's
 * custom_data so nobody mistakes it for a calibration.
 *
 * Pure core: photos come in decoded (the CLI reads and decodes the files), the bag goes through
 * the BagFileSystem interface of BagWriter.
 */
import { cameraInfoFields, makeCamera } from "../../sim/Camera";
import { QOS_SENSOR_DATA } from "../ros/graph/types";
import { nsToStamp } from "../util/time";
import { defaultRegistry } from "../ros/msgs";
import type { BagFileSystem } from "./BagStorage";
import { BagWriter } from "./BagWriter";
import { offeredQosProfilesYaml } from "./offeredQosProfiles";
import type { BagMetadata } from "./BagMetadata";

export type BagPhoto = { name: string; width: number; height: number; /** row-major RGB */ rgb: Uint8Array };

export type ImagesToBagOptions = {
  fs: BagFileSystem;
  /** Bag directory to create (must not hold a bag). */
  directory: string;
  /** Frames per second. Default 10. */
  rate_hz?: number;
  /** Stamp of the first frame, ns. Default 1 s (a zero stamp reads as "unset" to some tools). */
  startNs?: bigint;
  /** header.frame_id. Default "camera_optical_frame" (as nodes/sim.ts). */
  frameId?: string;
  /** Horizontal field of view of the assumed pinhole, degrees. Default 60. */
  hfov_deg?: number;
  /** Image and CameraInfo topics. Defaults /camera/image_raw and /camera/camera_info. */
  imageTopic?: string;
  infoTopic?: string;
  storage?: "mcap" | "sqlite3";
};

export const IMAGE_MSG = "sensor_msgs/msg/Image";
export const CAMERA_INFO_MSG = "sensor_msgs/msg/CameraInfo";

/** Writes the photos in order; returns the bag's metadata. */
export async function imagesToBag(photos: Iterable<BagPhoto> | AsyncIterable<BagPhoto>, options: ImagesToBagOptions): Promise<BagMetadata> {
  const rate = options.rate_hz ?? 10;
  if (!(rate > 0 && rate <= 1000)) throw new RangeError(`rate_hz=${rate}, expected (0, 1000]`);
  const hfov = options.hfov_deg ?? 60;
  if (!(hfov > 0 && hfov < 180)) throw new RangeError(`hfov_deg=${hfov}, expected (0, 180)`);
  const periodNs = BigInt(Math.round(1e9 / rate));
  const imageTopic = options.imageTopic ?? "/camera/image_raw";
  const infoTopic = options.infoTopic ?? "/camera/camera_info";
  const frameId = options.frameId ?? "camera_optical_frame";
  const registry = defaultRegistry();
  const writer = await BagWriter.create({
    fs: options.fs,
    directory: options.directory,
    storage: options.storage ?? "mcap",
    compression: (options.storage ?? "mcap") === "mcap" ? "zstd" : "none",
    customData: { source: "drone-harness bag from-images", camera_model: `ideal pinhole, hfov ${hfov} deg, not a calibration` },
  });
  const qos = offeredQosProfilesYaml([QOS_SENSOR_DATA]);
  for (const [topic, type] of [[imageTopic, IMAGE_MSG], [infoTopic, CAMERA_INFO_MSG]] as const) {
    await writer.addTopic({ topic, type, schemaText: registry.ros2msgText(type), offeredQosProfiles: qos });
  }
  let t = options.startNs ?? 1_000_000_000n;
  try {
    for await (const p of photos) {
      if (p.rgb.length !== p.width * p.height * 3) throw new RangeError(`${p.name}: rgb.length=${p.rgb.length}, expected ${p.width}x${p.height}x3`);
      const header = { stamp: nsToStamp(t), frame_id: frameId };
      const info = cameraInfoFields(makeCamera(p.width, p.height, hfov, 0));
      // CameraInfo first: a node that honours it sees the size before the frame.
      await writer.write(infoTopic, t, registry.serialize(CAMERA_INFO_MSG, { header, ...info }));
      await writer.write(imageTopic, t, registry.serialize(IMAGE_MSG, { header, height: p.height, width: p.width, encoding: "rgb8", is_bigendian: 0, step: 3 * p.width, data: p.rgb }));
      t += periodNs;
    }
  } catch (err) {
    // Close what was written (a readable bag of the photos before the bad one), then report.
    await writer.close();
    throw err;
  }
  return writer.close();
}
