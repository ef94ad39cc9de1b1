/**
 * CDR bytes that do not decode as the named type (truncated, corrupt length fields, wrong type).
 * The message names the type, the byte count and the reader's reason, e.g.
 * `sensor_msgs/msg/Image: cannot decode 60 bytes of CDR: sequence length 4294967295 at byte 40 exceeds the 20 bytes left in the 60-byte message`.
 */
export class MessageDecodeError extends Error {
  override readonly name = "MessageDecodeError";
  constructor(
    readonly typeName: string,
    readonly byteLength: number,
    readonly reason: string,
  ) {
    super(`${typeName}: cannot decode ${byteLength} bytes of CDR: ${reason}`);
  }
}
