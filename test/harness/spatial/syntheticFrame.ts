/**
 * A fixed synthetic detector output and camera frame for the spatial runtime's tests (no simulator):
 * five-class logits per 8 px cell with structure in every region, and an RGB image with gradients.
 */
export function syntheticFrame(width: number, height: number): { logits: Float32Array; rgb: Uint8Array } {
  const cells = (width / 8) * (height / 8);
  const logits = new Float32Array(cells * 5);
  for (let i = 0; i < logits.length; i++) logits[i] = 2 * Math.cos(0.7 * i) + Math.sin(0.13 * i);
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < rgb.length; i++) rgb[i] = (i * 37 + ((i >> 9) * 11)) % 251;
  return { logits, rgb };
}
