/**
 * sensor_msgs/msg/Image -> 8-bit grey, written into a caller-owned buffer (no allocation).
 *
 * The image type is structural so that the generated `sensor_msgs/msg/Image` record (which also
 * carries `header` and `is_bigendian`) is accepted as is. `is_bigendian` is irrelevant for 8-bit
 * encodings. Encoding names follow sensor_msgs/image_encodings.hpp.
 */

/** The fields of sensor_msgs/msg/Image that the conversion reads. */
export type ImageLike = {
  readonly height: number;
  readonly width: number;
  readonly encoding: string;
  /** Row length in bytes; may exceed width * channels (row padding). */
  readonly step: number;
  readonly data: Uint8Array;
};

/** Encodings accepted by `imageToGrey`, with their bytes per pixel and RGB byte offsets. */
export const GREY_ENCODINGS = {
  mono8: { channels: 1, r: 0, g: 0, b: 0 },
  rgb8: { channels: 3, r: 0, g: 1, b: 2 },
  bgr8: { channels: 3, r: 2, g: 1, b: 0 },
  rgba8: { channels: 4, r: 0, g: 1, b: 2 },
  bgra8: { channels: 4, r: 2, g: 1, b: 0 },
} as const;

export type GreyEncoding = keyof typeof GREY_ENCODINGS;

/** Why an image was rejected: the offending field and a message naming value and valid range. */
export type ImageProblem = { field: "encoding" | "width" | "height" | "step" | "data"; message: string };

function isGreyEncoding(encoding: string): encoding is GreyEncoding {
  return Object.prototype.hasOwnProperty.call(GREY_ENCODINGS, encoding);
}

/**
 * Checks an image for conversion. Returns undefined when it is usable, otherwise the problem.
 * `expected` optionally pins the size (the preallocated buffers of a pipeline are per size).
 */
export function checkImage(image: ImageLike, expected?: { width: number; height: number }): ImageProblem | undefined {
  if (!isGreyEncoding(image.encoding)) {
    return { field: "encoding", message: `encoding="${image.encoding}", expected one of ${Object.keys(GREY_ENCODINGS).join(", ")}` };
  }
  if (!Number.isInteger(image.width) || image.width <= 0) {
    return { field: "width", message: `width=${image.width}, expected a positive integer` };
  }
  if (!Number.isInteger(image.height) || image.height <= 0) {
    return { field: "height", message: `height=${image.height}, expected a positive integer` };
  }
  if (expected !== undefined && (image.width !== expected.width || image.height !== expected.height)) {
    const field = image.width !== expected.width ? "width" : "height";
    return {
      field,
      message: `${field}=${image[field]}, expected ${expected[field]} (size ${expected.width}x${expected.height} this pipeline was built for)`,
    };
  }
  const rowBytes = image.width * GREY_ENCODINGS[image.encoding].channels;
  if (!Number.isInteger(image.step) || image.step < rowBytes) {
    return { field: "step", message: `step=${image.step}, expected an integer >= width*channels=${rowBytes} for ${image.encoding}` };
  }
  if (image.data.length !== image.step * image.height) {
    return { field: "data", message: `data.length=${image.data.length}, expected step*height=${image.step * image.height}` };
  }
  return undefined;
}

/**
 * ITU-R BT.601 luma in the 14-bit fixed point OpenCV uses for COLOR_RGB2GRAY
 * (modules/imgproc/src/color.hpp: R2Y=4899, G2Y=9617, B2Y=1868, i.e. 0.299, 0.587, 0.114).
 */
const R2Y = 4899;
const G2Y = 9617;
const B2Y = 1868;
const SHIFT = 14;
const HALF = 1 << (SHIFT - 1);

/**
 * Writes the grey image of `image` (row-major, width*height bytes, no padding) into `out`.
 * Throws a RangeError naming the field when `checkImage` finds a problem or `out` has the wrong
 * length. Allocation-free; one pass over the data.
 */
export function imageToGrey(image: ImageLike, out: Uint8Array): void {
  const problem = checkImage(image);
  if (problem !== undefined) throw new RangeError(`imageToGrey: ${problem.message}`);
  const { width, height, step, data } = image;
  if (out.length !== width * height) {
    throw new RangeError(`imageToGrey: out.length=${out.length}, expected width*height=${width * height}`);
  }
  const layout = GREY_ENCODINGS[image.encoding as GreyEncoding];
  if (layout.channels === 1) {
    if (step === width) {
      out.set(data);
      return;
    }
    for (let y = 0; y < height; y++) out.set(data.subarray(y * step, y * step + width), y * width);
    return;
  }
  const c = layout.channels;
  const { r, g, b } = layout;
  let o = 0;
  for (let y = 0; y < height; y++) {
    let i = y * step;
    for (let x = 0; x < width; x++, i += c) {
      out[o++] = (data[i + r]! * R2Y + data[i + g]! * G2Y + data[i + b]! * B2Y + HALF) >> SHIFT;
    }
  }
}
