/**
 * The lossy part of baseline JPEG, without the entropy coding: RGB -> YCbCr (JFIF), optional
 * 4:2:0 chroma subsampling (what most cameras write), 8x8 block DCT, quantisation with the
 * ITU-T T.81 Annex K example tables (K.1 luminance, K.2 chrominance) scaled by the IJG quality
 * formula (libjpeg jcparam.c, jpeg_quality_scaling), inverse DCT, back to RGB, rounded to 8 bits.
 * The Huffman stage is lossless, so the pixels equal an encode + decode (up to DCT rounding) at
 * a twentieth of the cost of jpeg-js's encoder (45 ms for a 128x128 crop here), which made it
 * the bottleneck of training-time augmentation (issue 14 item 2).
 */

// T.81 Annex K, Table K.1 and K.2, row-major.
const LUMA_Q = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24,
  35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];
const CHROMA_Q = [17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99, ...new Array<number>(32).fill(99)];

/** The quantisation table for `quality` (1..100), IJG scaling, entries clamped to [1, 255]. */
export function quantTable(base: readonly number[], quality: number): Float32Array {
  const q = Math.min(100, Math.max(1, Math.round(quality)));
  const scale = q < 50 ? Math.floor(5000 / q) : 200 - 2 * q;
  return Float32Array.from(base, (v) => Math.min(255, Math.max(1, Math.floor((v * scale + 50) / 100))));
}

/** Orthonormal DCT-II basis: C[u * 8 + x] = c(u) cos((2x + 1) u pi / 16). */
const DCT = (() => {
  const c = new Float32Array(64);
  for (let u = 0; u < 8; u++) for (let x = 0; x < 8; x++) c[u * 8 + x] = (u === 0 ? Math.SQRT1_2 : 1) * 0.5 * Math.cos(((2 * x + 1) * u * Math.PI) / 16);
  return c;
})();

/** Quantises one 8x8 block in place (values level-shifted by -128): DCT, round to the table, inverse DCT. */
function quantiseBlock(block: Float32Array, table: Float32Array, tmp: Float32Array): void {
  // Rows then columns: F = C B C^T.
  for (let y = 0; y < 8; y++) {
    for (let u = 0; u < 8; u++) {
      let s = 0;
      for (let x = 0; x < 8; x++) s += DCT[u * 8 + x]! * block[y * 8 + x]!;
      tmp[y * 8 + u] = s;
    }
  }
  for (let u = 0; u < 8; u++) {
    for (let v = 0; v < 8; v++) {
      let s = 0;
      for (let y = 0; y < 8; y++) s += DCT[v * 8 + y]! * tmp[y * 8 + u]!;
      const q = table[v * 8 + u]!;
      block[v * 8 + u] = Math.round(s / q) * q;
    }
  }
  // Inverse: B = C^T F C.
  for (let v = 0; v < 8; v++) {
    for (let x = 0; x < 8; x++) {
      let s = 0;
      for (let u = 0; u < 8; u++) s += DCT[u * 8 + x]! * block[v * 8 + u]!;
      tmp[v * 8 + x] = s;
    }
  }
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      let s = 0;
      for (let v = 0; v < 8; v++) s += DCT[v * 8 + y]! * tmp[v * 8 + x]!;
      block[y * 8 + x] = s;
    }
  }
}

/** Quantises a plane (w x h, values 0..255) block by block in place; edge blocks replicate the last row/column. */
function quantisePlane(plane: Float32Array, w: number, h: number, table: Float32Array): void {
  const block = new Float32Array(64);
  const tmp = new Float32Array(64);
  for (let by = 0; by < h; by += 8) {
    for (let bx = 0; bx < w; bx += 8) {
      for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) block[y * 8 + x] = plane[Math.min(h - 1, by + y) * w + Math.min(w - 1, bx + x)]! - 128;
      quantiseBlock(block, table, tmp);
      for (let y = 0; y < 8 && by + y < h; y++) for (let x = 0; x < 8 && bx + x < w; x++) plane[(by + y) * w + bx + x] = block[y * 8 + x]! + 128;
    }
  }
}

/** 2x2 box average (the chroma of 4:2:0), ceil sizes. */
function subsample(plane: Float32Array, w: number, h: number): { plane: Float32Array; w: number; h: number } {
  const sw = Math.ceil(w / 2);
  const sh = Math.ceil(h / 2);
  const out = new Float32Array(sw * sh);
  for (let y = 0; y < sh; y++) {
    for (let x = 0; x < sw; x++) {
      const x1 = Math.min(w - 1, 2 * x + 1);
      const y1 = Math.min(h - 1, 2 * y + 1);
      out[y * sw + x] = (plane[2 * y * w + 2 * x]! + plane[2 * y * w + x1]! + plane[y1 * w + 2 * x]! + plane[y1 * w + x1]!) / 4;
    }
  }
  return { plane: out, w: sw, h: sh };
}

/**
 * JPEG compression artefacts at `quality` on an interleaved RGB image in [0, 1] (width x height
 * x 3), in place. `subsampleChroma` (default true) averages Cb and Cr over 2x2 pixels as 4:2:0
 * files do (decoded by pixel replication); false keeps full-resolution chroma as jpeg-js writes.
 */
export function jpegArtefacts(img: Float32Array, width: number, height: number, quality: number, subsampleChroma = true): void {
  const n = width * height;
  const Y = new Float32Array(n);
  const Cb = new Float32Array(n);
  const Cr = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const r = img[3 * i]! * 255;
    const g = img[3 * i + 1]! * 255;
    const b = img[3 * i + 2]! * 255;
    Y[i] = 0.299 * r + 0.587 * g + 0.114 * b;
    Cb[i] = -0.168736 * r - 0.331264 * g + 0.5 * b + 128;
    Cr[i] = 0.5 * r - 0.418688 * g - 0.081312 * b + 128;
  }
  quantisePlane(Y, width, height, quantTable(LUMA_Q, quality));
  const chroma = quantTable(CHROMA_Q, quality);
  for (const plane of [Cb, Cr]) {
    if (!subsampleChroma) {
      quantisePlane(plane, width, height, chroma);
      continue;
    }
    const s = subsample(plane, width, height);
    quantisePlane(s.plane, s.w, s.h, chroma);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) plane[y * width + x] = s.plane[(y >> 1) * s.w + (x >> 1)]!;
  }
  for (let i = 0; i < n; i++) {
    const y = Y[i]!;
    const cb = Cb[i]! - 128;
    const cr = Cr[i]! - 128;
    img[3 * i] = to01(y + 1.402 * cr);
    img[3 * i + 1] = to01(y - 0.344136 * cb - 0.714136 * cr);
    img[3 * i + 2] = to01(y + 1.772 * cb);
  }
}

/** 8-bit rounding and clamping, back to [0, 1]. */
function to01(v: number): number {
  return Math.min(255, Math.max(0, Math.round(v))) / 255;
}
