/**
 * The image size a perception Detector accepts (parameters expected_width/expected_height): a
 * fixed positive size, or 0x0 for any size (the detector follows each frame).
 */
export class DetectorSize {
  /** True when every frame size is accepted. */
  readonly any: boolean;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.any = width === 0 && height === 0;
    if (!this.any && !(Number.isInteger(width) && width > 0 && Number.isInteger(height) && height > 0)) {
      throw new RangeError(`image size ${width}x${height}, expected positive integers, or 0x0 for any size (set expected_width/expected_height)`);
    }
  }

  /** The size to allocate before the first frame (256x256 when any size is accepted). */
  get initial(): { width: number; height: number } {
    return this.any ? { width: 256, height: 256 } : { width: this.width, height: this.height };
  }

  /** Throws a RangeError naming both sizes when a fixed size is configured and the frame differs. */
  check(image: { width: number; height: number }): void {
    if (!this.any && (image.width !== this.width || image.height !== this.height)) {
      throw new RangeError(`image ${image.width}x${image.height}, expected ${this.width}x${this.height}`);
    }
  }
}
