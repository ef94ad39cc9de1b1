/**
 * Publishes diagnostic_msgs/msg/DiagnosticArray on /diagnostics at 1 Hz (the diagnostic_updater
 * convention: absolute topic "/diagnostics", one DiagnosticStatus per task, name
 * "<node name>: <task>"). Each task returns its level, message and key/value pairs: rates, drops,
 * latency, lifecycle state.
 */
import type { Publisher, RosNode, Timer } from "../../../src/ros/graph/types";
import { QOS_DEFAULT } from "../../../src/ros/graph/types";
import type { Header } from "../../../src/control/visionTypes";

/** diagnostic_msgs/msg/DiagnosticStatus levels (byte constants OK, WARN, ERROR, STALE). */
export const DIAG_OK = 0;
export const DIAG_WARN = 1;
export const DIAG_ERROR = 2;
export const DIAG_STALE = 3;

export type KeyValue = { key: string; value: string };
export type DiagnosticStatus = { level: number; name: string; message: string; hardware_id: string; values: KeyValue[] };
export type DiagnosticArray = { header: Header; status: DiagnosticStatus[] };

export type DiagnosticTaskResult = { level: number; message: string; values: KeyValue[] };
export type DiagnosticTask = () => DiagnosticTaskResult;

export const DIAGNOSTICS_TOPIC = "/diagnostics";
export const DIAGNOSTICS_TYPE = "diagnostic_msgs/msg/DiagnosticArray";

/** The status every node reports for messages that did not decode (EmbeddedNode counts them). */
export const UNDECODABLE_TASK = "undecodable input";

/** WARN with "drops/<topic>:undecodable" counts once any message failed to decode, else OK. */
export function undecodableStatus(counts: ReadonlyMap<string, number>): DiagnosticTaskResult {
  let total = 0;
  const values: KeyValue[] = [];
  for (const [topic, n] of counts) {
    total += n;
    values.push({ key: `drops/${topic.replace(/^\//, "")}:undecodable`, value: String(n) });
  }
  return total === 0
    ? { level: DIAG_OK, message: "every message decoded", values }
    : { level: DIAG_WARN, message: `${total} undecodable message(s) dropped`, values };
}

export class NodeDiagnostics {
  private readonly tasks: Array<{ name: string; task: DiagnosticTask }> = [];
  private publisher: Publisher<DiagnosticArray> | undefined;
  private timer: Timer | undefined;

  constructor(
    private readonly node: RosNode,
    private readonly options: { hardwareId?: string; periodNs?: bigint } = {},
  ) {}

  add(name: string, task: DiagnosticTask): void {
    this.tasks.push({ name, task });
  }

  /** Creates the publisher and the timer (call from configure: state is reported while inactive too). */
  start(): void {
    if (this.publisher !== undefined) return;
    this.publisher = this.node.createPublisher<DiagnosticArray>(DIAGNOSTICS_TYPE, DIAGNOSTICS_TOPIC, { qos: QOS_DEFAULT });
    this.timer = this.node.createTimer(this.options.periodNs ?? 1_000_000_000n, () => this.publishNow());
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
    if (this.publisher !== undefined) this.node.destroyPublisher(this.publisher);
    this.publisher = undefined;
  }

  /** Builds the array (also used by tests and on demand, e.g. right after a safety override). */
  build(): DiagnosticArray {
    const status: DiagnosticStatus[] = [];
    for (const { name, task } of this.tasks) {
      let r: DiagnosticTaskResult;
      try {
        r = task();
      } catch (err) {
        r = { level: DIAG_ERROR, message: `diagnostic task failed: ${err instanceof Error ? err.message : String(err)}`, values: [] };
      }
      status.push({ level: r.level, name: `${this.node.name}: ${name}`, message: r.message, hardware_id: this.options.hardwareId ?? "", values: r.values });
    }
    const undecodable = this.node.undecodableMessages?.();
    if (undecodable !== undefined) {
      const r = undecodableStatus(undecodable);
      status.push({ ...r, name: `${this.node.name}: ${UNDECODABLE_TASK}`, hardware_id: this.options.hardwareId ?? "" });
    }
    return { header: { stamp: this.node.getClock().now(), frame_id: "" }, status };
  }

  publishNow(): void {
    this.publisher?.publish(this.build());
  }
}
