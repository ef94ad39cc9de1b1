/**
 * `drone-harness bag from-images <dir> -o <bag> [--rate 10] [--hfov 60] [--frame-id F]
 *   [-s mcap|sqlite3]`: the photos of a folder (PNG/JPEG, sorted by name, numerically where the
 * names are numbers; *.mask.png skipped) become a rosbag2 camera stream (src/bag/imagesToBag.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { imagesToBag, type BagPhoto } from "../../bag/imagesToBag";
import { NodeBagFileSystem } from "../../bag/node/NodeBagFileSystem";
import { decodeImage } from "../../harness/data/imageCodec";
import { UsageError, type CliIO } from "../CliCommand";

export const FROM_IMAGES_USAGE = "bag from-images <dir> -o <bag> [--rate <Hz, default 10>] [--hfov <deg, default 60>] [--frame-id <id>] [-s|--storage mcap|sqlite3]";

const PHOTO = /\.(png|jpe?g)$/i;

/** Flags as parsed by bag.ts's parseArgs (positionals, and each `--flag` with its values). */
export type FromImagesArgs = { positional: string[]; flags: Map<string, string[]> };

/** The valued flags of `bag from-images`, for the parser. */
export const FROM_IMAGES_FLAGS = ["-o", "--output", "--rate", "--hfov", "--frame-id", "-s", "--storage"];

export async function fromImages(args: FromImagesArgs, io: CliIO): Promise<number> {
  const flag = (...names: string[]): string | undefined => names.map((n) => args.flags.get(n)?.[0]).find((v) => v !== undefined);
  for (const k of args.flags.keys()) if (!FROM_IMAGES_FLAGS.includes(k)) throw new UsageError(`unexpected argument "${k}"`);
  if (args.positional.length > 1) throw new UsageError(`one folder expected, got ${args.positional.join(" ")}`);
  const dir = args.positional[0];
  const out = flag("-o", "--output");
  const rate = Number(flag("--rate") ?? 10);
  if (!(rate > 0 && rate <= 1000)) throw new UsageError(`--rate ${flag("--rate") ?? ""}: expected a number in (0, 1000] Hz`);
  const hfov = Number(flag("--hfov") ?? 60);
  if (!(hfov > 0 && hfov < 180)) throw new UsageError(`--hfov ${flag("--hfov") ?? ""}: expected degrees in (0, 180)`);
  const frameId = flag("--frame-id");
  const storage = flag("-s", "--storage") ?? "mcap";
  if (storage !== "mcap" && storage !== "sqlite3") throw new UsageError(`--storage ${storage}: expected mcap or sqlite3`);
  if (dir === undefined || out === undefined) throw new UsageError(`usage: ${FROM_IMAGES_USAGE}`);
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new UsageError(`${dir}: not a folder`);
  const files = fs
    .readdirSync(dir)
    .filter((f) => PHOTO.test(f) && !f.endsWith(".mask.png"))
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  if (files.length === 0) throw new UsageError(`${dir}: no PNG or JPEG photos`);
  const src = dir;
  // Decoded one at a time as the writer asks: memory stays one photo, whatever the folder holds.
  function* photos(): Generator<BagPhoto> {
    for (const f of files) {
      const img = decodeImage(fs.readFileSync(path.join(src, f)), path.join(src, f));
      yield { name: f, ...img };
    }
  }
  const md = await imagesToBag(photos(), { fs: new NodeBagFileSystem(), directory: out, rate_hz: rate, hfov_deg: hfov, storage, ...(frameId === undefined ? {} : { frameId }) });
  io.out(`${out}: ${files.length} photos from ${dir} as /camera/image_raw + /camera/camera_info at ${rate} Hz (${md.messageCount} messages, ${storage})\n`);
  return 0;
}
