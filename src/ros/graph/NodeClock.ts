import type { Clock, RosTime } from "./types";
import { nsToStamp } from "../../util/time";
import { wallNowNs } from "./wallClock";

/**
 * A node's clock (rclcpp TimeSource): wall time, or, when use_sim_time is true, the last time
 * received on /clock (0 until the first message, as ROS 2).
 */
export class NodeClock implements Clock {
  #simTime = false;
  #simNowNs = 0n;
  /** Called when the time source changes (wall <-> sim), so timers restart their period. */
  onChange: (() => void) | undefined;

  get isSimTime(): boolean {
    return this.#simTime;
  }

  setSimTime(enabled: boolean): void {
    if (this.#simTime === enabled) return;
    this.#simTime = enabled;
    this.onChange?.();
  }

  /** A /clock sample (rosgraph_msgs/msg/Clock.clock). */
  setSimNowNs(ns: bigint): void {
    this.#simNowNs = ns;
  }

  nowNs(): bigint {
    return this.#simTime ? this.#simNowNs : wallNowNs();
  }

  now(): RosTime {
    return nsToStamp(this.nowNs());
  }
}
