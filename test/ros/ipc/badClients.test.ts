/**
 * Issue 16 items 1 and 6: a client that sends a bad request shape or an oversized frame is told
 * why and dropped; the launch (and every other client) goes on, and a crash leaves no socket file.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EmbeddedGraph } from "../../../src/ros/graph";
import { GraphClient, GraphServer } from "../../../src/ros/ipc";
import { encodeJsonFrame, FrameDecoder, LARGE_MESSAGE_BYTES, SERVER_FRAME_LIMITS, SMALL_MESSAGE_BYTES } from "../../../src/ros/ipc/frames";
import { parseRequest } from "../../../src/ros/ipc/parseRequest";
import { launchIntrospection } from "../../../src/ros/launch/launchIntrospection";

/** A raw connection: what the launch answered before it closed the connection. */
async function sendRaw(path: string, wire: Buffer): Promise<{ responses: unknown[]; closed: boolean }> {
  const socket: Socket = connect(path);
  const decoder = new FrameDecoder();
  const responses: unknown[] = [];
  return new Promise((resolve) => {
    // EPIPE/ECONNRESET when the launch drops us mid-write: what it answered is what counts.
    socket.on("error", () => socket.destroy());
    socket.on("data", (chunk: Buffer) => {
      for (const f of decoder.push(chunk)) if (f.kind === "json") responses.push(f.value);
    });
    socket.on("close", () => resolve({ responses, closed: true }));
    socket.on("connect", () => socket.write(wire));
  });
}

/** A JSON frame of any text (not necessarily valid JSON). */
function textFrame(text: string): Buffer {
  const body = Buffer.from(text, "utf8");
  const head = Buffer.alloc(5);
  head.writeUInt32BE(body.length + 1, 0);
  head.writeUInt8(1, 4);
  return Buffer.concat([head, body]);
}

/** The header of a PUBLISH frame announcing `declared` body bytes of `typeName` (the body is never sent). */
function publishHeaderOnly(typeName: string, declared: number): Buffer {
  const json = Buffer.from(JSON.stringify({ topic: "/x", typeName }), "utf8");
  const out = Buffer.alloc(13 + json.length);
  out.writeUInt32BE(9 + json.length + declared, 0);
  out.writeUInt8(3, 4);
  out.writeUInt32BE(7, 5);
  out.writeUInt32BE(json.length, 9);
  json.copy(out, 13);
  return out;
}

/** Request shapes a client may send by mistake or on purpose, with the text the error must contain. */
export const BAD_REQUESTS: Array<[string, string]> = [
  ["null", "introspection request is null, expected an object"],
  ["[]", "introspection request is an array"],
  ['"info"', 'introspection request is "info"'],
  ["5", "introspection request is number"],
  ["{}", "introspection request id=undefined, expected an integer >= 0"],
  ['{"id":-1,"op":"info"}', "introspection request id=number"],
  ['{"id":"1","op":"info"}', 'introspection request id="1"'],
  ['{"id":1}', "introspection request op=undefined, expected one of info, "],
  ['{"id":1,"op":"toString"}', 'introspection request op="toString"'],
  ['{"id":1,"op":"constructor"}', 'introspection request op="constructor"'],
  ['{"id":1,"op":"getParam"}', "introspection request getParam.node=undefined, expected a string"],
  ['{"id":1,"op":"getParam","node":"/a","name":null}', "introspection request getParam.name=null, expected a string"],
  ['{"id":1,"op":"subscribe","topic":5}', "introspection request subscribe.topic=number, expected a string"],
  ['{"id":1,"op":"unsubscribe","subscriptionId":"1"}', 'introspection request unsubscribe.subscriptionId="1", expected an integer'],
  ['{"id":1,"op":"info","constructor":{}}', 'introspection request info: unknown field "constructor"'],
  ['{"id":1,"op":"info","__proto__":{"x":1}}', 'introspection request info: unknown field "__proto__"'],
  ["{not json", "introspection JSON frame of 9 bytes is not valid JSON"],
];

describe("introspection server against bad clients", () => {
  let dir: string;
  let path: string;
  let graph: EmbeddedGraph;
  let server: GraphServer;
  const logged: string[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "dh-badcli-"));
    path = join(dir, "s", "launch-1.sock");
    graph = new EmbeddedGraph({ stderrLevel: "silent" });
    graph.spin();
    logged.length = 0;
    server = new GraphServer(launchIntrospection(graph, () => undefined, { pid: 1, launchFile: "t.launch.xml", startedAtMs: 1 }), {
      maxClients: 3,
      maxBufferedBytes: 3 * 1024 * 1024,
      log: (l) => logged.push(l),
    });
    await server.listen(path);
  });
  afterEach(async () => {
    await server.close();
    await graph.shutdown();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(BAD_REQUESTS)("answers the frame %s with an error naming the problem, drops that client and serves the next", async (text, expected) => {
    const { responses, closed } = await sendRaw(path, textFrame(text));
    expect(closed).toBe(true);
    expect(responses).toHaveLength(1);
    expect((responses[0] as { ok: boolean; error: string }).ok).toBe(false);
    expect((responses[0] as { error: string }).error).toContain(expected);
    expect(logged.join("\n")).toContain(`dropping client: ${expected}`);
    const client = await GraphClient.connect({ socketPath: path });
    expect(await client.info()).toEqual({ pid: 1, launchFile: "t.launch.xml", startedAtMs: 1 });
    client.close();
  });

  it("caps PUBLISH frames by message type before buffering their body", async () => {
    const small = await sendRaw(path, publishHeaderOnly("std_msgs/msg/String", SMALL_MESSAGE_BYTES + 1));
    expect((small.responses[0] as { error: string }).error).toMatch(/^introspection PUBLISH std_msgs\/msg\/String frame of \d+ bytes exceeds the 4194304-byte limit/);
    const large = await sendRaw(path, publishHeaderOnly("sensor_msgs/msg/Image", LARGE_MESSAGE_BYTES + 1));
    expect((large.responses[0] as { error: string }).error).toContain("introspection PUBLISH sensor_msgs/msg/Image frame of");
    // A JSON request is small: a 2 MiB JSON frame is refused from its 5-byte head.
    const head = Buffer.alloc(5);
    head.writeUInt32BE(2 * 1024 * 1024, 0);
    head.writeUInt8(1, 4);
    expect(((await sendRaw(path, head)).responses[0] as { error: string }).error).toBe("introspection JSON frame of 2097152 bytes exceeds the 1048576-byte limit for it");
    expect(SERVER_FRAME_LIMITS.publishBytes("sensor_msgs/msg/Imu")).toBe(SMALL_MESSAGE_BYTES);
  });

  it("drops the client whose partial frames push the total over maxBufferedBytes, and refuses clients past maxClients", async () => {
    // Two clients each start a 2 MiB Image (under its own 64 MiB cap); the second passes the 3 MiB total.
    const partial = Buffer.concat([publishHeaderOnly("sensor_msgs/msg/Image", 2 * 1024 * 1024), Buffer.alloc(2 * 1024 * 1024 - 100)]);
    const a = connect(path);
    await new Promise<void>((r) => a.on("connect", r));
    await new Promise<void>((r) => a.write(partial, () => r()));
    await new Promise<void>((r) => setTimeout(r, 50)); // lets the server read a's bytes; the assertion below does not depend on it
    const b = await sendRaw(path, partial);
    expect((b.responses[0] as { error: string }).error).toMatch(/^partial frames of all clients exceed 3145728 bytes/);
    const held = [a, connect(path), connect(path)];
    await Promise.all(held.slice(1).map((s) => new Promise<void>((r) => s.on("connect", r))));
    await new Promise<void>((r) => setTimeout(r, 50));
    expect(server.clientCount).toBe(3);
    const refused = await sendRaw(path, encodeJsonFrame({ id: 1, op: "info" }));
    expect(refused.responses).toEqual([{ id: -1, ok: false, error: "the launch serves at most 3 introspection clients at once; try again later" }]);
    for (const s of held) s.destroy();
  });
});

describe("parseRequest", () => {
  it("accepts every op with its fields", () => {
    expect(parseRequest({ id: 0, op: "info" })).toEqual({ id: 0, op: "info" });
    expect(parseRequest({ id: 3, op: "setParam", node: "/n", name: "p", value: "1" })).toEqual({ id: 3, op: "setParam", node: "/n", name: "p", value: "1" });
    expect(parseRequest({ id: 4, op: "unsubscribe", subscriptionId: 2 })).toEqual({ id: 4, op: "unsubscribe", subscriptionId: 2 });
  });
});

describe("a launch process that dies", () => {
  it("leaves no socket file behind", () => {
    const built = join(__dirname, "../../../dist/src/ros/ipc/GraphServer.js");
    if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build first`);
    const dir = mkdtempSync(join(tmpdir(), "dh-crash-"));
    const sock = join(dir, "s", "launch-9.sock");
    try {
      const script = `
        const { GraphServer } = require(${JSON.stringify(built)});
        const target = { info: () => ({}) };
        new GraphServer(target).listen(${JSON.stringify(sock)}).then(() => {
          if (!require("node:fs").existsSync(${JSON.stringify(sock)})) process.exit(3);
          setImmediate(() => { throw new Error("crash"); });
        });`;
      let status = 0;
      try {
        execFileSync(process.execPath, ["-e", script], { stdio: "pipe" });
      } catch (err) {
        status = (err as { status: number }).status;
      }
      expect(status).toBe(1); // the uncaught "crash", not exit 3 (socket never created)
      expect(existsSync(sock)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
