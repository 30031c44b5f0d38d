import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { utf8Text } from '../../src/streams/utf8-text.js';

describe('utf8Text', () => {
  it('decodes any bytes to the same string as Buffer#toString, valid UTF-8 or not', () => {
    const texts = ['', '{"a":1}', 'café Zürich', '中文字符 ✓', '😀 𝄞 \uFEFF mid-text BOM', '\uFFFE\uFFFF', 'x'.repeat(5000) + 'é', 'é' + 'x'.repeat(4094), 'é' + 'x'.repeat(4095)];
    const bytes = texts.map((t) => Buffer.from(t, 'utf8'));
    const long = (b: number[]) => [...Buffer.alloc(5000, 0x61), ...b]; // above the length where text is transcoded
    const invalid = [[0x61, 0x80, 0x62], [0xe4, 0xb8], [0xe4, 0xb8, 0x41], [0xf0, 0x9f, 0x98], [0xed, 0xa0, 0x80], [0xc0, 0x80], [0xff, 0x41], [0xf4, 0x90, 0x80, 0x80], long([0xc3, 0xa9, 0x80]), long([0xe4, 0xb8])];
    for (const b of [...bytes, ...invalid.map((b) => Buffer.from(b))]) {
      const framed = Buffer.concat([Buffer.from('[é'), b, Buffer.from(']')]);
      expect(utf8Text(framed, 3, 3 + b.length)).toBe(b.toString('utf8'));
      expect(utf8Text(b, 0, b.length)).toBe(b.toString('utf8'));
    }
  });
});
