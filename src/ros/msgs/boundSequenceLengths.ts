/**
 * Caps CDR sequence lengths against the bytes left in the buffer, before anything is allocated.
 *
 * @foxglove/cdr 3.5.0's CdrReader reads a sequence length and then allocates for it: an
 * unaligned or big-endian numeric sequence copies into `new TypedArray(count)` before it reads a
 * byte, so a corrupt length field of 0x0fffffff in a 60-byte message allocated up to 2 GB and
 * ended in "Invalid typed array length" (found by test/fuzz/cdr.fuzz.test.ts). Every element of a
 * CDR sequence occupies at least one byte (OMG DDS-XTypes 1.3, 7.4.3.5: bool/octet are 1 byte,
 * strings carry a 4-byte length, ROS 2 structs have at least one member), so a count larger than
 * the remaining bytes can never be valid and is rejected here. MessageReader gets every dynamic
 * array length through `sequenceLength()`, so this one check covers primitive and complex arrays.
 */
import { CdrReader } from "@foxglove/cdr";

export class CdrLengthError extends RangeError {
  override readonly name = "CdrLengthError";
}

const INSTALLED = Symbol.for("drone_harness.boundSequenceLengths");
type Patched = { [INSTALLED]?: true };

/** Installs the check on CdrReader.prototype (once per process; idempotent). */
export function boundSequenceLengths(): void {
  const proto = CdrReader.prototype as CdrReader & Patched;
  if (proto[INSTALLED] === true) return;
  const read = (reader: CdrReader): number => reader.uint32();
  proto.sequenceLength = function sequenceLength(this: CdrReader): number {
    const count = read(this);
    const at = this.decodedBytes - 4; // after alignment: where the length field is
    const left = this.byteLength - this.decodedBytes;
    if (count > left) {
      throw new CdrLengthError(`sequence length ${count} at byte ${at} exceeds the ${left} bytes left in the ${this.byteLength}-byte message`);
    }
    return count;
  };
  proto[INSTALLED] = true;
}

boundSequenceLengths();
