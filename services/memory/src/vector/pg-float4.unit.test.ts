import { float4ArrayFromSend } from './pg-float4.js';

/** A real[] as array_send writes it. */
function sent(values: number[] | null, elementLength = 4): Uint8Array {
  const n = values?.length ?? 0;
  const view = new DataView(new ArrayBuffer(values === null ? 12 : 20 + n * (4 + Math.max(0, elementLength))));
  view.setInt32(0, values === null ? 0 : 1);
  view.setInt32(4, 0);
  view.setInt32(8, 700); // float4's oid
  if (values !== null) {
    view.setInt32(12, n);
    view.setInt32(16, 1);
    values.forEach((v, i) => {
      view.setInt32(20 + i * (4 + Math.max(0, elementLength)), elementLength);
      if (elementLength > 0) view.setFloat32(24 + i * 8, v);
    });
  }
  return new Uint8Array(view.buffer);
}

describe('float4ArrayFromSend', () => {
  it('reads the floats of a one-dimensional real[]', () => {
    expect([...float4ArrayFromSend(sent([1, -0.5, 0.25]))]).toEqual([1, -0.5, 0.25]);
  });

  it('reads an empty array (no dimensions) as no values', () => {
    expect(float4ArrayFromSend(sent(null))).toEqual(new Float32Array(0));
  });

  it('reads from a view into a larger buffer, as a bytea of a result row is', () => {
    const bytes = sent([3, 4]);
    const larger = new Uint8Array(bytes.length + 7);
    larger.set(bytes, 5);
    expect([...float4ArrayFromSend(larger.subarray(5, 5 + bytes.length))]).toEqual([3, 4]);
  });

  it('refuses what is not a real[] of one dimension', () => {
    const twoDims = sent([1, 2]);
    new DataView(twoDims.buffer).setInt32(0, 2);
    expect(() => float4ArrayFromSend(twoDims)).toThrow(RangeError);
    const withNull = sent([1], -1);
    expect(() => float4ArrayFromSend(withNull)).toThrow('expected 4-byte real elements');
  });
});
