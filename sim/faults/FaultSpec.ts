/**
 * Faults the simulator injects into its sensor streams (issue 8), as written in a scenario's
 * `faults:` block or passed to the sim node:
 *
 *   faults:
 *     - { kind: camera_freeze, start_s: 2, duration_s: 1 }
 *     - { kind: imu_spikes, start_s: 5, duration_s: 0.5, magnitude_m_s2: 400, probability: 1 }
 *     - { kind: flood, start_s: 8, duration_s: 1, topic: camera, factor: 10 }
 *
 * - camera_freeze: the driver keeps sending its last frame (same pixels, same stamp);
 * - camera_frozen_pixels: the driver keeps sending its last frame's pixels under fresh headers
 *   (new stamps at the camera rate): the failure of USB/CSI drivers that republish the last
 *   buffer they hold; only a check of the pixels themselves can see it;
 * - camera_blackout: no camera frames at all;
 * - imu_spikes: the IMU's specific force jumps to `magnitude_m_s2` on a share `probability` of
 *   the messages (seeded, so runs repeat);
 * - gps_loss: gps/fix reports STATUS_NO_FIX and gps/vel goes silent;
 * - flood: every message of `topic` (camera | imu | gps) is sent `factor` times (the copies carry
 *   stamps 1 us apart, so they are distinct messages, as from a driver gone wild).
 * Times are simulated seconds; a fault is active on [start_s, start_s + duration_s).
 * Pure: validation only; sim/faults/faultyGraph.ts applies the faults.
 */
export type FaultKind = "camera_freeze" | "camera_frozen_pixels" | "camera_blackout" | "imu_spikes" | "gps_loss" | "flood";
export const FAULT_KINDS: readonly FaultKind[] = ["camera_freeze", "camera_frozen_pixels", "camera_blackout", "imu_spikes", "gps_loss", "flood"];
export type FloodTopic = "camera" | "imu" | "gps";

export type Fault =
  | { kind: "camera_freeze" | "camera_frozen_pixels" | "camera_blackout" | "gps_loss"; start_s: number; duration_s: number }
  | { kind: "imu_spikes"; start_s: number; duration_s: number; magnitude_m_s2: number; probability: number }
  | { kind: "flood"; start_s: number; duration_s: number; topic: FloodTopic; factor: number };

export class FaultSpecError extends Error {
  override readonly name = "FaultSpecError";
}

/** Valid ranges of the numeric keys, by key. */
export const FAULT_BOUNDS: Readonly<Record<string, readonly [number, number]>> = {
  start_s: [0, 86_400],
  duration_s: [0, 86_400],
  magnitude_m_s2: [0, 10_000],
  probability: [0, 1],
  factor: [2, 100],
};

const KEYS: Readonly<Record<FaultKind, readonly string[]>> = {
  camera_freeze: ["kind", "start_s", "duration_s"],
  camera_frozen_pixels: ["kind", "start_s", "duration_s"],
  camera_blackout: ["kind", "start_s", "duration_s"],
  gps_loss: ["kind", "start_s", "duration_s"],
  imu_spikes: ["kind", "start_s", "duration_s", "magnitude_m_s2", "probability"],
  flood: ["kind", "start_s", "duration_s", "topic", "factor"],
};

/**
 * Validates a parsed `faults` value (a list of mappings). `where(i, key)` gives the location
 * prefix of an error (e.g. "x.yaml:12"); errors name it and the dotted key:
 * `x.yaml:12: faults[1].duration_s: value=-1 is outside [0, 86400]`.
 */
export function parseFaults(value: unknown, where: (index: number, key: string) => string = () => "faults"): Fault[] {
  const fail = (i: number, key: string, message: string): never => {
    const at = where(i, key);
    throw new FaultSpecError(`${at === "faults" ? "" : `${at}: `}faults${i < 0 ? "" : `[${i}]`}${key === "" ? "" : `.${key}`}: ${message}`);
  };
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return fail(-1, "", `expected a list of faults, got ${describe(value)}`);
  return value.map((item: unknown, i): Fault => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) return fail(i, "", `expected a mapping, got ${describe(item)}`);
    const rec = item as Record<string, unknown>;
    const kind = rec.kind;
    if (typeof kind !== "string" || !(FAULT_KINDS as readonly string[]).includes(kind)) {
      return fail(i, "kind", `${JSON.stringify(kind) ?? "nothing"} is not one of ${FAULT_KINDS.join(", ")}`);
    }
    const k = kind as FaultKind;
    for (const key of Object.keys(rec)) {
      if (!KEYS[k].includes(key)) fail(i, key, `unknown key for kind ${k}; valid keys: ${KEYS[k].join(", ")}`);
    }
    const num = (key: string, fallback?: number): number => {
      const v = rec[key] ?? fallback;
      if (v === undefined) return fail(i, key, "is required");
      if (typeof v !== "number" || !Number.isFinite(v)) return fail(i, key, `expected a finite number, got ${describe(v)}`);
      const b = FAULT_BOUNDS[key];
      if (b !== undefined && (v < b[0] || v > b[1])) fail(i, key, `value=${v} is outside [${b[0]}, ${b[1]}]`);
      return v;
    };
    const start_s = num("start_s");
    const duration_s = num("duration_s");
    switch (k) {
      case "camera_freeze":
      case "camera_frozen_pixels":
      case "camera_blackout":
      case "gps_loss":
        return { kind: k, start_s, duration_s };
      case "imu_spikes":
        return { kind: k, start_s, duration_s, magnitude_m_s2: num("magnitude_m_s2", 500), probability: num("probability", 1) };
      case "flood": {
        const topic = rec.topic ?? "camera";
        if (topic !== "camera" && topic !== "imu" && topic !== "gps") return fail(i, "topic", `${JSON.stringify(topic)} is not one of camera, imu, gps`);
        const factor = num("factor", 10);
        if (!Number.isInteger(factor)) fail(i, "factor", `value=${factor} must be an integer`);
        return { kind: k, start_s, duration_s, topic, factor };
      }
    }
  });
}

function describe(v: unknown): string {
  if (v === null || v === undefined) return "nothing";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "a mapping";
  return `${typeof v} ${JSON.stringify(v)}`;
}
