/**
 * Reads a folder of real photographs with wire ground truth (../shared/fixtures/real/pld-dev/):
 * `NAME.jpg` (or .png) beside `NAME.mask.png` (white = wire). Sub-folders are sets (PLDU, PLDM);
 * photos directly in the folder form one set named after it. Photos without a mask are skipped
 * and counted; sorted by set, then by name (numeric where the names are numbers).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { decodeImage, type RgbImage } from "../harness/data/imageCodec";
import { UsageError } from "./CliCommand";

export type RealPhotoRef = { set: string; name: string; photo: string; mask: string };
export type RealPhoto = RealPhotoRef & { image: RgbImage; /** 0/1 per pixel */ wire: Uint8Array };

const PHOTO = /^(.*)\.(jpe?g|png)$/i;

function photosIn(dir: string, set: string): RealPhotoRef[] {
  const out: RealPhotoRef[] = [];
  for (const f of fs.readdirSync(dir)) {
    const m = PHOTO.exec(f);
    if (m === null || f.endsWith(".mask.png")) continue;
    const name = m[1] ?? f;
    const mask = path.join(dir, `${name}.mask.png`);
    if (fs.existsSync(mask)) out.push({ set, name, photo: path.join(dir, f), mask });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }));
}

export function listRealPhotos(dir: string): RealPhotoRef[] {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new UsageError(`--real ${dir}: not a folder`);
  const subs = fs.readdirSync(dir).filter((f) => fs.statSync(path.join(dir, f)).isDirectory()).sort();
  const refs = [...photosIn(dir, path.basename(path.resolve(dir))), ...subs.flatMap((s) => photosIn(path.join(dir, s), s))];
  if (refs.length === 0) throw new UsageError(`--real ${dir}: no NAME.jpg + NAME.mask.png pairs found`);
  return refs;
}

export function loadRealPhoto(ref: RealPhotoRef): RealPhoto {
  const image = decodeImage(fs.readFileSync(ref.photo), ref.photo);
  const m = decodeImage(fs.readFileSync(ref.mask), ref.mask);
  if (m.width !== image.width || m.height !== image.height) throw new Error(`${ref.mask}: ${m.width}x${m.height}, expected the photo's ${image.width}x${image.height}`);
  const wire = new Uint8Array(m.width * m.height);
  for (let i = 0; i < wire.length; i++) wire[i] = m.rgb[3 * i]! >= 128 ? 1 : 0;
  return { ...ref, image, wire };
}
