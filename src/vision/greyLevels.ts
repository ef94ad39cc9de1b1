/**
 * Grey levels of 8-bit RGB frames: (r + g + b) / 3 for every channel sum 0..765, as float32. One
 * table for greyFromRgb8 (the spatial harness's grey frame) and imageInputFromRgb8 (which fills
 * the same grey levels from its own pass over the bytes when asked), so both give the same bits
 * as dividing.
 */
export const GREY_OF_SUM: Float32Array = Float32Array.from({ length: 3 * 255 + 1 }, (_, s) => s / 3);
