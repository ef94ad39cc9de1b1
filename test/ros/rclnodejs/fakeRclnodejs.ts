import type {
  RclClock,
  RclLifecycleNode,
  RclLifecyclePublisher,
  RclLogging,
  RclNode,
  RclnodejsModule,
  RclNodeOptions,
  RclOptions,
  RclParameter,
  RclPublisher,
  RclQoS,
  RclSetParametersResult,
  RclState,
  RclSubscription,
  RclTimer,
} from "../../../src/ros/rclnodejs/rclnodejsApi";

/**
 * An in-memory stand-in for the rclnodejs subset in rclnodejsApi.ts, recording what the adapter
 * hands to rclnodejs (resolved names, QoS codes, parameter values) and delivering published
 * messages synchronously. Behaviour follows rclnodejs's documented contracts: integer parameters
 * are bigint (lib/parameter.js), on-set callbacks can veto, lifecycle callbacks return 97/98.
 */
export type FakeRcl = RclnodejsModule & {
  initArgv: string[] | undefined;
  spun: string[];
  logs: Array<{ logger: string; level: string; message: string }>;
  created: Array<{ kind: "pub" | "sub"; node: string; type: string; topic: string; options: RclOptions | undefined }>;
  subs: Map<string, Array<(m: unknown) => void>>;
  timers: Array<{ period: bigint; fire: () => void }>;
};

/** What every fake node records into: the FakeRcl fields before the module functions join them. */
type FakeRecord = Pick<FakeRcl, "initArgv" | "spun" | "logs" | "created" | "subs" | "timers"> & { shut: boolean };

class Parameter implements RclParameter {
  constructor(
    readonly name: string,
    readonly type: number,
    public value: unknown,
  ) {}
}
class QoS implements RclQoS {
  constructor(
    public history = 0,
    public depth = 0,
    public reliabilityCode = 0,
    public durability = 0,
  ) {}
}
class NodeOptions implements RclNodeOptions {
  parameterOverrides: RclParameter[] = [];
}

function makeFakeLogger(fake: FakeRecord, name: string): RclLogging {
  return {
    name,
    setLoggerLevel: () => undefined,
    debug: (m) => (fake.logs.push({ logger: name, level: "debug", message: m }), true),
    info: (m) => (fake.logs.push({ logger: name, level: "info", message: m }), true),
    warn: (m) => (fake.logs.push({ logger: name, level: "warn", message: m }), true),
    error: (m) => (fake.logs.push({ logger: name, level: "error", message: m }), true),
    fatal: (m) => (fake.logs.push({ logger: name, level: "fatal", message: m }), true),
  };
}

function makeFakeNode(fake: FakeRecord, name: string, ns: string): RclNode {
  const params = new Map<string, RclParameter>();
  const onSet: Array<(ps: RclParameter[]) => RclSetParametersResult> = [];
  const fqn = ns === "" || ns === "/" ? `/${name}` : `${ns}/${name}`;
  const logger = makeFakeLogger(fake, name);
  const clock: RclClock = { now: () => ({ nanoseconds: 42n }) };
  params.set("use_sim_time", new Parameter("use_sim_time", 1, false));
  return {
    name: () => name,
    namespace: () => ns,
    getLogger: () => logger,
    getClock: () => clock,
    createPublisher: (type, topic, options) => {
      fake.created.push({ kind: "pub", node: fqn, type, topic, options });
      return { topic, publish: (m) => (fake.subs.get(topic) ?? []).forEach((cb) => cb(m)) };
    },
    createSubscription: (type, topic, options, cb) => {
      fake.created.push({ kind: "sub", node: fqn, type, topic, options });
      fake.subs.set(topic, [...(fake.subs.get(topic) ?? []), cb]);
      return { topic } satisfies RclSubscription;
    },
    createTimer: (period, cb) => {
      let canceled = false;
      fake.timers.push({ period, fire: cb });
      return { period, cancel: () => (canceled = true), isCanceled: () => canceled } satisfies RclTimer;
    },
    destroyPublisher: () => undefined,
    destroySubscription: () => undefined,
    destroyTimer: () => undefined,
    declareParameter: (p) => {
      if (params.has(p.name)) throw new Error(`Parameter ${p.name} already declared`);
      params.set(p.name, p);
      return p;
    },
    hasParameter: (n) => params.has(n),
    getParameter: (n) => params.get(n) ?? new Parameter(n, 0, undefined),
    setParameters: (ps) =>
      ps.map((p) => {
        for (const cb of onSet) {
          const r = cb([p]);
          if (!r.successful) return r;
        }
        params.set(p.name, p);
        return { successful: true, reason: "" };
      }),
    addOnSetParametersCallback: (cb) => onSet.unshift(cb),
    getTopicNamesAndTypes: () => [...new Set(fake.created.map((c) => `${c.topic}|${c.type}`))].map((s) => ({ name: s.split("|")[0] ?? "", types: [s.split("|")[1] ?? ""] })),
    getNodeNamesAndNamespaces: () => [{ name, namespace: ns === "" ? "/" : ns }],
    countSubscribers: (topic) => (fake.subs.get(topic) ?? []).length,
    destroy: () => undefined,
  };
}

/** A lifecycle publisher that forwards to `inner` only while activated. */
function makeFakeLifecyclePublisher(inner: RclPublisher, topic: string): RclLifecyclePublisher {
  let active = false;
  return {
    topic,
    publish: (m) => {
      if (active) inner.publish(m);
    },
    activate: () => void (active = true),
    deactivate: () => void (active = false),
  };
}

function makeFakeLifecycleNode(fake: FakeRecord, name: string, ns: string): RclLifecycleNode {
  const base = makeFakeNode(fake, name, ns);
  let state: RclState = { id: 1, label: "unconfigured" };
  const cbs = new Map<string, (prev: RclState) => number>();
  const go = (name: string, from: string[], to: RclState): RclState => {
    if (!from.includes(state.label)) throw new Error(`invalid transition ${name} from ${state.label}`);
    const code = cbs.get(name)?.(state) ?? 97;
    if (code === 97) state = to;
    return state;
  };
  const pubs: RclLifecyclePublisher[] = [];
  // defineProperty, not Object.assign: assign would copy the getter's value once.
  Object.defineProperty(base, "currentState", { get: () => state });
  return Object.assign(base as RclNode & { readonly currentState: RclState }, {
    registerOnConfigure: (cb: (p: RclState) => number) => void cbs.set("configure", cb),
    registerOnActivate: (cb: (p: RclState) => number) => void cbs.set("activate", cb),
    registerOnDeactivate: (cb: (p: RclState) => number) => void cbs.set("deactivate", cb),
    registerOnCleanup: (cb: (p: RclState) => number) => void cbs.set("cleanup", cb),
    registerOnShutdown: (cb: (p: RclState) => number) => void cbs.set("shutdown", cb),
    configure: () => go("configure", ["unconfigured"], { id: 2, label: "inactive" }),
    activate: () => go("activate", ["inactive"], { id: 3, label: "active" }),
    deactivate: () => go("deactivate", ["active"], { id: 2, label: "inactive" }),
    cleanup: () => go("cleanup", ["inactive"], { id: 1, label: "unconfigured" }),
    shutdown: () => go("shutdown", ["unconfigured", "inactive", "active"], { id: 4, label: "finalized" }),
    createLifecyclePublisher: (type: string, topic: string, options?: RclOptions) => {
      const pub = makeFakeLifecyclePublisher(base.createPublisher(type, topic, options), topic);
      pubs.push(pub);
      return pub;
    },
  });
}

export function makeFakeRcl(): FakeRcl {
  const fake: FakeRecord = {
    initArgv: undefined,
    spun: [],
    logs: [],
    created: [],
    subs: new Map<string, Array<(m: unknown) => void>>(),
    timers: [],
    shut: false,
  };
  const module: RclnodejsModule = {
    init: async (_ctx, argv) => {
      fake.initArgv = argv;
    },
    createNode: (n, ns = "") => makeFakeNode(fake, n, ns),
    createLifecycleNode: (n, ns = "") => makeFakeLifecycleNode(fake, n, ns),
    spin: (node) => void fake.spun.push(node.name()),
    shutdown: () => void (fake.shut = true),
    isShutdown: () => fake.shut,
    NodeOptions,
    Parameter,
    ParameterDescriptor: class {
      constructor(
        readonly name: string,
        readonly type: number,
      ) {}
    },
    FloatingPointRange: class {
      constructor(
        readonly from: number,
        readonly to: number,
      ) {}
    },
    IntegerRange: class {
      constructor(
        readonly from: number,
        readonly to: number,
      ) {}
    },
    QoS,
  };
  return Object.assign(fake, module);
}
