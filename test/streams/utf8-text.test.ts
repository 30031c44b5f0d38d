import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { utf8Text } from '../../src/streams/utf8-text.js';

/** Checks `utf8Text` against `Buffer#toString` on `b` alone and inside a larger buffer. */
function expectSameAsToString(b: Buffer): void {
  const framed = Buffer.concat([Buffer.from('[é'), b, Buffer.from('ü]')]);
  expect(utf8Text(framed, 3, 3 + b.length)).toBe(b.toString('utf8'));
  expect(utf8Text(b, 0, b.length)).toBe(b.toString('utf8'));
}

describe('utf8Text', () => {
  it('decodes any bytes to the same string as Buffer#toString, valid UTF-8 or not', () => {
    const texts = ['', '{"a":1}', 'café Zürich', '中文字符 ✓', '😀 𝄞 \uFEFF mid-text BOM', '\uFFFE\uFFFF', 'x'.repeat(5000) + 'é', 'é' + 'x'.repeat(4094), 'é' + 'x'.repeat(4095)];
    const bytes = texts.map((t) => Buffer.from(t, 'utf8'));
    const long = (b: number[]) => [...Buffer.alloc(5000, 0x61), ...b]; // above the length where text is transcoded
    const invalid = [[0x61, 0x80, 0x62], [0xe4, 0xb8], [0xe4, 0xb8, 0x41], [0xf0, 0x9f, 0x98], [0xed, 0xa0, 0x80], [0xc0, 0x80], [0xff, 0x41], [0xf4, 0x90, 0x80, 0x80], long([0xc3, 0xa9, 0x80]), long([0xe4, 0xb8])];
    for (const b of [...bytes, ...invalid.map((b) => Buffer.from(b))]) expectSameAsToString(b);
  });

  it('decodes text whose characters beyond ASCII are within Latin-1 (the one-byte path) exactly, and refuses to take it for anything else', () => {
    const x = (n: number) => 'x'.repeat(n);
    const latin1 = [
      'Zürich', 'ü', 'üü', 'aü', 'üa', '\u0080', '\u00ff', '\u00c0\u00bf\u00a0', 'Ça coûte 10 €? non: 10 £', // € is beyond Latin-1
      `{"memo":"settlement for the Zürich desk","n":1}`.repeat(5), x(1000) + 'ü' + x(5000) + 'é' + x(10),
      x(70_000) + 'ü' + x(10) + 'é', // longer than the reused buffer
      'é'.repeat(16), 'é'.repeat(17), 'é'.repeat(40) + x(6000), 'é'.repeat(41) + x(6000), // around the limit of the path
      'Zürich ✓', 'Zürich 😀', 'ü' + x(5000) + '中', // Latin-1 first, then beyond it
    ];
    for (const t of latin1) expectSameAsToString(Buffer.from(t, 'utf8'));
    const bad = [
      [0xc3], [0x61, 0xc3], [0xc3, 0x41], [0xc3, 0xc3, 0xbc], [0xc2, 0xc0], [0xc3, 0xbc, 0xbc], [0xc3, 0xbc, 0x80, 0x61],
      [0xc3, 0xbc, 0xff], [0xc3, 0xbc, 0xe4, 0xb8], [0xc3, 0xbc, 0xed, 0xa0, 0x80], [0xc1, 0xbc], [0xc4, 0x80, 0xc3, 0xbc],
      [...Buffer.from('Zürich'), 0x80, ...Buffer.alloc(5000, 0x61)], [...Buffer.alloc(5000, 0x61), ...Buffer.from('Zürich'), 0xc3],
    ];
    for (const b of bad) expectSameAsToString(Buffer.from(b));
  });

  it('agrees with Buffer#toString on pseudo-random mostly-ASCII bytes with Latin-1 characters and stray bytes', () => {
    let seed = 26;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const pool = [0xc2, 0xc3, 0x80, 0xa9, 0xbf, 0xc0, 0xe2, 0x82, 0xac, 0xf0, 0x9f];
    for (let n = 0; n < 2000; n++) {
      const length = Math.floor(next() * (n % 10 === 0 ? 6000 : 60));
      const rate = next() * 0.1;
      const b = Buffer.alloc(length);
      for (let i = 0; i < length; i++) {
        if (next() >= rate) b[i] = 0x20 + Math.floor(next() * 0x5f);
        else if (next() < 0.5 || i + 1 === length) b[i] = pool[Math.floor(next() * pool.length)] as number;
        else b.writeUInt16BE(0xc280 + Math.floor(next() * 2) * 0x100 + Math.floor(next() * 0x40), i++); // a Latin-1 character
      }
      expectSameAsToString(b);
    }
  });
});
