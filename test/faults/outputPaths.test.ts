/**
 * Output paths (issue 8, item 4): a bag is written only inside its output directory. The directory
 * is resolved (`a/../b` is `b`); a symlink planted in it in place of a bag file or metadata.yaml
 * is refused (O_NOFOLLOW) instead of being followed to a file outside.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BagWriter } from "../../src/bag/BagWriter";
import { NodeBagFileSystem } from "../../src/bag/node/NodeBagFileSystem";
import { defaultRegistry } from "../../src/ros/msgs";

const registry = defaultRegistry();
const TYPE = "geometry_msgs/msg/TwistStamped";

async function record(directory: string): Promise<void> {
  const w = await BagWriter.create({ fs: new NodeBagFileSystem(), directory, compression: "none" });
  await w.addTopic({ topic: "/cmd_vel", type: TYPE, schemaText: registry.ros2msgText(TYPE), offeredQosProfiles: "" });
  for (let i = 0; i < 5; i++) await w.write("/cmd_vel", 1_000n + BigInt(i), registry.serialize(TYPE, registry.defaultMessage(TYPE)));
  await w.close();
}

describe("bag output paths", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "dh-out-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("writes only inside the resolved output directory (../ is resolved, not escaped)", async () => {
    mkdirSync(join(root, "a"));
    await record(join(root, "a", "..", "out"));
    expect(readdirSync(root).sort()).toEqual(["a", "out"]);
    expect(readdirSync(join(root, "a"))).toEqual([]);
    expect(readdirSync(join(root, "out")).sort()).toEqual(["metadata.yaml", "out_0.mcap"]);
  });

  it("a symlink in place of the bag file is refused; its target is untouched", async () => {
    const victim = join(root, "victim.txt");
    writeFileSync(victim, "precious");
    mkdirSync(join(root, "out"));
    symlinkSync(victim, join(root, "out", "out_0.mcap"));
    // Refused before anything is opened: an existing first bag file is never written (issue 16 item 2).
    await expect(record(join(root, "out"))).rejects.toThrow(/out_0\.mcap: exists: refusing to overwrite a bag file/);
    expect(readFileSync(victim, "utf8")).toBe("precious");
  });

  it("a dangling symlink in place of metadata.yaml is refused; nothing is created outside", async () => {
    const target = join(root, "elsewhere", "created-by-bag.yaml");
    mkdirSync(join(root, "elsewhere"));
    mkdirSync(join(root, "out"));
    symlinkSync(target, join(root, "out", "metadata.yaml"));
    await expect(record(join(root, "out"))).rejects.toThrow(/ELOOP|symbolic link/);
    expect(existsSync(target)).toBe(false);
  });
});
