/**
 * Copies a validated sensor_msgs/Image (rgb8, bgr8, rgba8, bgra8, mono8; any row padding `step`)
 * into a tightly packed rgb8 buffer, reused between frames (no allocation unless the size
 * changes). Channel orders follow sensor_msgs image_encodings.hpp names.
 */
import type { Image } from "./sensorTypes";

export class Rgb8Converter {
  private buffer = new Uint8Array(0);
  private floats = new Float32Array(0);

  /** RGB in [0, 1] as float32 (the networks' input scale), width*height*3, reused. */
  convertFloat01(image: Image): Float32Array {
    const rgb = this.convert(image);
    if (this.floats.length !== rgb.length) this.floats = new Float32Array(rgb.length);
    const f = this.floats;
    for (let i = 0; i < rgb.length; i++) f[i] = rgb[i]! * (1 / 255);
    return f;
  }

  /** Returns a reused width*height*3 buffer; call checkImage first (encoding and step are trusted). */
  convert(image: Image): Uint8Array {
    const { width, height, step, data, encoding } = image;
    const n = width * height * 3;
    if (this.buffer.length !== n) this.buffer = new Uint8Array(n);
    const out = this.buffer;
    if (encoding === "rgb8" && step === width * 3) {
      out.set(data.subarray(0, n));
      return out;
    }
    const bpp = encoding === "mono8" ? 1 : encoding === "rgba8" || encoding === "bgra8" ? 4 : 3;
    const swap = encoding === "bgr8" || encoding === "bgra8";
    for (let y = 0; y < height; y++) {
      let src = y * step;
      let dst = y * width * 3;
      for (let x = 0; x < width; x++, src += bpp, dst += 3) {
        if (bpp === 1) {
          const g = data[src]!;
          out[dst] = g; out[dst + 1] = g; out[dst + 2] = g;
        } else if (swap) {
          out[dst] = data[src + 2]!; out[dst + 1] = data[src + 1]!; out[dst + 2] = data[src]!;
        } else {
          out[dst] = data[src]!; out[dst + 1] = data[src + 1]!; out[dst + 2] = data[src + 2]!;
        }
      }
    }
    return out;
  }
}
