/**
 * `bag record`, `bag recover`, `bag info` and `bag play` on files they must not destroy or must
 * refuse (issue 16 items 2, 3 and 9): nothing is overwritten or truncated, bad input exits 1 with
 * the file and the problem named, and no empty output is left behind.
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { BagWriter } from "../../src/bag/BagWriter";
import { commonSchemaText } from "../../src/bag/commonDefinitions";
import { NodeBagFileSystem } from "../../src/bag/node/NodeBagFileSystem";
import { runBagPlay } from "../../src/cli/commands/bag";
import { main } from "../../src/cli/main";
import { defaultRegistry } from "../../src/ros/msgs";
import { TALKER_SQLITE3 } from "./fixtures";
import { startTalkerLaunch } from "./talkerLaunch";

type Run = { code: number; out: string; err: string };

async function run(args: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join(""), err: err.join("") };
}

const N = 400;

/**
 * The folder a killed MCAP recording leaves: <dir>/<name>_0.mcap cut at 60 % (no summary, no
 * footer) and no metadata.yaml. Small chunks, so most messages sit in complete chunks.
 */
async function killedRecording(dir: string): Promise<string> {
  const registry = defaultRegistry();
  const w = await BagWriter.create({ fs: new NodeBagFileSystem(), directory: dir, chunkSizeBytes: 4096 });
  await w.addTopic({ topic: "/chatter", type: "std_msgs/msg/String", schemaText: commonSchemaText("std_msgs/msg/String"), offeredQosProfiles: "" });
  for (let i = 0; i < N; i++) await w.write("/chatter", 1_700_000_000_000_000_000n + BigInt(i) * 1_000_000n, registry.serialize("std_msgs/msg/String", { data: `message ${i} ${"x".repeat(40)}` }));
  await w.close();
  unlinkSync(path.join(dir, "metadata.yaml"));
  const file = path.join(dir, `${path.basename(dir)}_0.mcap`);
  truncateSync(file, Math.floor(readFileSync(file).length * 0.6));
  return file;
}

describe("bag record into the folder of a killed MCAP recording (issue 16 item 2)", () => {
  it("refuses with exit 1 naming the file; the file keeps every byte and stays recoverable", async () => {
    const launch = await startTalkerLaunch("bag-refuse-record-");
    try {
      const bagDir = path.join(launch.dir, "killed");
      const file = await killedRecording(bagDir);
      const before = readFileSync(file);
      const r = await run(["bag", "record", "-o", bagDir, "--socket", launch.socket, "--duration", "0.2", "/chatter"]);
      expect(r.code).toBe(1);
      expect(r.err).toContain(`${file}: exists: refusing to overwrite a bag file`);
      expect(r.err).toContain("bag recover");
      expect(readFileSync(file).equals(before)).toBe(true);
      expect(existsSync(path.join(bagDir, "metadata.yaml"))).toBe(false);
      // What the refusal protects: the messages of the complete chunks.
      const rec = await run(["bag", "recover", file]);
      expect(rec.code).toBe(0);
      const recovered = Number(/recovered (\d+) messages/.exec(rec.out)?.[1]);
      expect(recovered).toBeGreaterThan(N / 3);
    } finally {
      await launch.stop();
    }
  });
});

describe("bag recover never overwrites (issue 16 item 3)", () => {
  let dir = "";
  let input = "";
  let inputBytes: Buffer;
  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "bag-refuse-recover-"));
    input = await killedRecording(path.join(dir, "rec"));
    inputBytes = readFileSync(input);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("-o <existing file>: exit 1, the file is left as it was", async () => {
    const other = path.join(dir, "notes.txt");
    writeFileSync(other, "keep me\n");
    const r = await run(["bag", "recover", input, "-o", other]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${other}: exists: refusing to overwrite it`);
    expect(readFileSync(other, "utf8")).toBe("keep me\n");
  });

  it("the default X.recovered.mcap when it exists: exit 1, left as it was; a first run writes it", async () => {
    const first = await run(["bag", "recover", input]);
    expect(first.code).toBe(0);
    const out = input.replace(/\.mcap$/, ".recovered.mcap");
    const written = readFileSync(out);
    expect(written.length).toBeGreaterThan(1000);
    const again = await run(["bag", "recover", input]);
    expect(again.code).toBe(1);
    expect(again.err).toContain(`${out}: exists`);
    expect(readFileSync(out).equals(written)).toBe(true);
  });

  it.each([
    ["a symlinked folder", (d: string, file: string): string => (symlinkSync(path.dirname(file), path.join(d, "alias")), path.join(d, "alias", path.basename(file)))],
    ["a hard link", (d: string, file: string): string => (linkSync(file, path.join(d, "hard.mcap")), path.join(d, "hard.mcap"))],
  ])("-o reaching the input through %s: exit 1 naming it as the input; the input keeps every byte", async (_name, alias) => {
    const output = alias(dir, input);
    const r = await run(["bag", "recover", input, "-o", output]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${output}: is the input ${input} (same device and inode)`);
    expect(readFileSync(input).equals(inputBytes)).toBe(true);
  });
});

describe("bad input to bag recover, info and play (issue 16 item 9)", () => {
  let dir = "";
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "bag-refuse-input-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("bag recover on a text file: exit 1 naming it, no .recovered.mcap written", async () => {
    const text = path.join(dir, "readme.mcap");
    writeFileSync(text, "this is not a bag\n".repeat(10));
    const r = await run(["bag", "recover", text]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${text}: not a rosbag2 bag file`);
    expect(existsSync(path.join(dir, "readme.recovered.mcap"))).toBe(false);
  });

  it("bag recover on a .db3: exit 1 saying it rebuilds MCAP only, no output written", async () => {
    const db3 = path.join(dir, "talker.db3");
    copyFileSync(path.join(TALKER_SQLITE3, "talker.db3"), db3);
    const r = await run(["bag", "recover", db3]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${db3}: is a SQLite 3 (.db3) file: bag recover rebuilds MCAP files only`);
    expect(existsSync(`${db3}.recovered.mcap`)).toBe(false);
  });

  it("bag recover on an MCAP cut inside its first record: exit 1, no empty output left", async () => {
    const cut = path.join(dir, "cut.mcap");
    writeFileSync(cut, readFileSync(await killedRecording(path.join(dir, "forcut"))).subarray(0, 40));
    const r = await run(["bag", "recover", cut]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${cut}: no complete message to recover`);
    expect(existsSync(path.join(dir, "cut.recovered.mcap"))).toBe(false);
  });

  it("bag info on a corrupt .db3 names the file", async () => {
    const db3 = path.join(dir, "corrupt.db3");
    const bytes = readFileSync(path.join(TALKER_SQLITE3, "talker.db3"));
    // Keep the 100-byte SQLite header (so it is sniffed as sqlite3), scramble the schema page.
    for (let i = 100; i < 4096; i++) bytes[i] = bytes[i]! ^ 0x5a;
    writeFileSync(db3, bytes);
    const r = await run(["bag", "info", db3]);
    expect(r.code).toBe(1);
    // sqlite's text; "SqliteError: " is prefixed when jest's realm makes the error fail `instanceof Error` (full-suite runs).
    expect(r.err.startsWith(`drone-harness bag info: ${db3}: not a readable rosbag2 sqlite3 file: `)).toBe(true);
    expect(r.err).toMatch(/: (SqliteError: )?database disk image is malformed\n$/);
  });

  it.each([
    ["truncated", (b: Buffer): Buffer => b.subarray(0, Math.floor(b.length * 0.6))],
    // A flipped bit inside a chunk's compressed records (past the header and schema records).
    ["bit-flipped", (b: Buffer): Buffer => ((b[Math.floor(b.length * 0.5)]! ^= 0x10), b)],
  ])("bag play of a %s bag: exit 1 with the problem named, after the good messages", async (_name, damage) => {
    const good = path.join(dir, `play-${_name}`);
    mkdirSync(good);
    const w = await BagWriter.create({ fs: new NodeBagFileSystem(), directory: path.join(good, "b"), chunkSizeBytes: 4096, compression: "none", chunkCrc: true });
    await w.addTopic({ topic: "/chatter", type: "std_msgs/msg/String", schemaText: commonSchemaText("std_msgs/msg/String"), offeredQosProfiles: "" });
    const registry = defaultRegistry();
    for (let i = 0; i < N; i++) await w.write("/chatter", BigInt(i) * 100_000n, registry.serialize("std_msgs/msg/String", { data: `m${i} ${"y".repeat(30)}` }));
    await w.close();
    const file = path.join(good, "b", "b_0.mcap");
    const damaged = path.join(good, "damaged.mcap");
    writeFileSync(damaged, damage(readFileSync(file)));
    writeFileSync(path.join(good, "empty.launch.xml"), "<launch/>\n");
    const out: string[] = [];
    const err: string[] = [];
    const code = await runBagPlay([damaged, "--launch", path.join(good, "empty.launch.xml"), "--rate", "1000"], { out: (t) => out.push(t), err: (t) => err.push(t) }, {
      registry: () => ({}),
      packageRoot: path.resolve(__dirname, "../.."),
    });
    expect(code).toBe(1);
    expect(err.join("")).toContain(`${damaged}: `);
    expect(err.join("")).toMatch(/stopped at a damaged bag after (\d+) of its messages/);
    const played = Number(/after (\d+) of/.exec(err.join(""))?.[1]);
    expect(played).toBeLessThan(N);
  });
});
