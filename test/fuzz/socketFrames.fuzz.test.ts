/**
 * Mutated and random byte streams into a live introspection socket (issue 16 items 1 and 6): each
 * case is one client connection. The launch must answer every valid request, answer a bad frame or
 * request shape with an error naming it and drop that client, and still serve the next client.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { EmbeddedGraph } from "../../src/ros/graph";
import { GraphClient, GraphServer } from "../../src/ros/ipc";
import { encodeJsonFrame, encodePublishHeader, FrameDecoder } from "../../src/ros/ipc/frames";
import { launchIntrospection } from "../../src/ros/launch/launchIntrospection";
import { FuzzTally, fcParams, fuzzRuns, mutate, mutationsArb } from "./fuzzSupport";

const RUNS = fuzzRuns(150);

type Answer = { ok: boolean; error?: string };

/** Sends `bytes`, half-closes, and collects the JSON answers until the launch closes the connection. */
function exchange(path: string, bytes: Uint8Array): Promise<Answer[]> {
  return new Promise((resolve) => {
    const socket = connect(path);
    const decoder = new FrameDecoder();
    const answers: Answer[] = [];
    socket.on("error", () => socket.destroy());
    socket.on("data", (chunk: Buffer) => {
      for (const f of decoder.push(chunk)) if (f.kind === "json") answers.push(f.value as Answer);
    });
    socket.on("close", () => resolve(answers));
    socket.on("connect", () => socket.end(bytes));
  });
}

/** What a dropped client was told, by the problem named. */
function dropLabel(error: string): string {
  const classes: Array<[RegExp, string]> = [
    [/^introspection request /, "bad request shape"],
    [/is not valid JSON/, "invalid JSON"],
    [/exceeds the \d+-byte limit/, "frame over its limit"],
    [/frame length \d+ is outside/, "frame length out of range"],
    [/frame kind \d+ is not/, "unknown frame kind"],
    [/MESSAGE frame from a client/, "MESSAGE frame from a client"],
    [/PUBLISH (header length|frame of \d+ bytes is shorter)/, "bad PUBLISH header"],
  ];
  const hit = classes.find(([re]) => re.test(error));
  if (hit === undefined) throw new Error(`a dropped client was told something that names no known problem: ${error}`);
  return `dropped: ${hit[1]}`;
}

const OPS = ["info", "listNodes", "listTopics", "stats", "topicInfo", "subscribe", "unsubscribe", "getParam", "listParams", "setParam", "constructor", "toString"];
const KEYS = ["id", "op", "topic", "node", "name", "value", "subscriptionId", "constructor", "__proto__", "toString"];
/** JSON request frames of any shape: random JSON, and objects built from the protocol's keys with values of any type. */
const requestFrameArb: fc.Arbitrary<Uint8Array> = fc
  .oneof(
    fc.jsonValue(),
    fc.dictionary(fc.constantFrom(...KEYS), fc.oneof(fc.constantFrom(...OPS), fc.integer({ min: -2, max: 3 }), fc.jsonValue()), { minKeys: 1, maxKeys: 6 }),
  )
  .map((v) => new Uint8Array(encodeJsonFrame(v)));

describe("introspection socket fuzz", () => {
  const tally = new FuzzTally("introspection socket frames");
  let dir: string;
  let path: string;
  let graph: EmbeddedGraph;
  let server: GraphServer;
  let valid: Uint8Array;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "dh-fuzzsock-"));
    path = join(dir, "s", "launch-1.sock");
    graph = new EmbeddedGraph({ stderrLevel: "silent" });
    graph.spin();
    server = new GraphServer(launchIntrospection(graph, () => undefined, { pid: 1, launchFile: "t.launch.xml", startedAtMs: 1 }));
    await server.listen(path);
    const cdr = graph.registry.serialize("std_msgs/msg/String", { data: "fuzz" });
    valid = Buffer.concat([
      encodeJsonFrame({ id: 1, op: "info" }),
      encodeJsonFrame({ id: 2, op: "listTopics" }),
      encodeJsonFrame({ id: 3, op: "getParam", node: "/nobody", name: "x" }),
      encodePublishHeader(4, { topic: "/fuzz", typeName: "std_msgs/msg/String" }, cdr.length),
      Buffer.from(cdr),
      encodeJsonFrame({ id: 5, op: "stats" }),
    ]);
  });
  afterAll(async () => {
    tally.print();
    await server.close();
    await graph.shutdown();
    rmSync(dir, { recursive: true, force: true });
  });

  it("every case ends in answers, or in one error naming the problem and the client dropped; the launch serves on", async () => {
    // The unmutated stream is answered in full: 5 answers, only getParam of a missing node fails.
    const answers = await exchange(path, valid);
    expect(answers.map((a) => a.ok)).toEqual([true, true, false, true, true]);
    await fc.assert(
      fc.asyncProperty(fc.oneof(
          { weight: 3, arbitrary: mutationsArb.map((ops) => mutate(valid, ops)) },
          { weight: 2, arbitrary: requestFrameArb },
          { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }) },
        ), async (bytes) => {
        await tally.runAsync(async () => {
          const got = await exchange(path, bytes);
          const failed = got.filter((a) => !a.ok && /^(introspection|partial frames)/.test(a.error ?? ""));
          return failed.length > 0 ? dropLabel(failed[failed.length - 1]?.error ?? "") : got.length > 0 ? "answered" : "nothing to answer (partial frame)";
        });
      }),
      fcParams(RUNS),
    );
    const client = await GraphClient.connect({ socketPath: path });
    expect(await client.info()).toEqual({ pid: 1, launchFile: "t.launch.xml", startedAtMs: 1 });
    client.close();
    expect(tally.cases).toBe(RUNS);
  });
});
