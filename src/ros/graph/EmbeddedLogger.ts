import type { Clock, Logger, LogLevel } from "./types";

/** rcl_interfaces/msg/Log severity constants (DEBUG=10 ... FATAL=50). */
export const LOG_LEVEL_VALUES: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40, fatal: 50 };

export type LogRecord = { level: LogLevel; name: string; message: string; timeNs: bigint };

export type LogSink = (record: LogRecord) => void;

/**
 * A node logger (rclcpp::Logger with rcutils levels): messages below the logger's level are
 * discarded; the rest go to the sink, which publishes rcl_interfaces/msg/Log on /rosout and
 * prints to stderr. The logger name is the node's, with the namespace as dotted prefix ("ns.node"),
 * as rcl names node loggers.
 */
export class EmbeddedLogger implements Logger {
  readonly name: string;
  #level: LogLevel;
  readonly #clock: Clock;
  readonly #sink: LogSink;
  readonly #throttleLast = new Map<string, bigint>();

  constructor(name: string, clock: Clock, sink: LogSink, level: LogLevel = "info") {
    this.name = name;
    this.#clock = clock;
    this.#sink = sink;
    this.#level = level;
  }

  get level(): LogLevel {
    return this.#level;
  }

  setLevel(level: LogLevel): void {
    if (!(level in LOG_LEVEL_VALUES)) throw new RangeError(`log level "${String(level)}": expected one of debug, info, warn, error, fatal`);
    this.#level = level;
  }

  debug(message: string): void {
    this.log("debug", message);
  }
  info(message: string): void {
    this.log("info", message);
  }
  warn(message: string): void {
    this.log("warn", message);
  }
  error(message: string): void {
    this.log("error", message);
  }
  fatal(message: string): void {
    this.log("fatal", message);
  }

  throttle(level: LogLevel, key: string, periodNs: bigint, message: string): void {
    const now = this.#clock.nowNs();
    const last = this.#throttleLast.get(key);
    if (last !== undefined && now - last < periodNs && now >= last) return;
    this.#throttleLast.set(key, now);
    this.log(level, message);
  }

  log(level: LogLevel, message: string): void {
    if (LOG_LEVEL_VALUES[level] < LOG_LEVEL_VALUES[this.#level]) return;
    this.#sink({ level, name: this.name, message, timeNs: this.#clock.nowNs() });
  }
}

/** rcl logger name of a node: namespace tokens joined with "." before the node name. */
export function loggerNameOf(namespace: string, name: string): string {
  const prefix = namespace === "/" ? "" : namespace.slice(1).split("/").join(".") + ".";
  return prefix + name;
}
