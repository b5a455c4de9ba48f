/**
 * A `real[]` as Postgres' `array_send` writes it (its binary form, read as
 * bytea), decoded: 4-byte big-endian floats behind a small header. Reading
 * vectors so is several times cheaper than parsing the text form of the array,
 * which dominated loading a user's 10k vectors.
 *
 * Layout: ndim, has-null flag, element type oid (int32 each); per dimension its
 * length and lower bound (int32 each); per element its byte length (int32, -1
 * for NULL) and its bytes.
 */
export function float4ArrayFromSend(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ndim = view.getInt32(0);
  if (ndim === 0) return new Float32Array(0);
  if (ndim !== 1) throw new RangeError(`expected a one-dimensional real[], got ${ndim} dimensions`);
  const n = view.getInt32(12);
  const out = new Float32Array(n);
  for (let i = 0, at = 20; i < n; i++, at += 8) {
    const length = view.getInt32(at);
    if (length !== 4) throw new RangeError(`expected 4-byte real elements, got an element of ${length} bytes`);
    out[i] = view.getFloat32(at + 4);
  }
  return out;
}
