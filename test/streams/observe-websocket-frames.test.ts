import { Buffer } from 'node:buffer';
import { EventEmitter } from 'node:events';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { observeWebSocketFrames, type FrameSocket } from '../../src/streams/index.js';

/** A socket that delivers the given frames (as `ws` does: text frames as bytes) once resumed, then closes with 1000. */
function fakeSocket(frames: readonly Buffer[]): FrameSocket {
  const events = new EventEmitter();
  let delivered = false;
  return {
    readyState: 1,
    on: (event, listener) => events.on(event, listener as (...args: unknown[]) => void),
    off: (event, listener) => events.off(event, listener as (...args: unknown[]) => void),
    pause: () => undefined,
    resume: () => {
      if (delivered) return;
      delivered = true;
      queueMicrotask(() => {
        for (const frame of frames) events.emit('message', frame, false);
        events.emit('close', 1000, Buffer.alloc(0));
      });
    },
    ping: () => undefined,
    close: () => undefined,
    terminate: () => undefined,
  };
}

describe('observeWebSocketFrames', () => {
  it('hands decode the exact text of every frame, ASCII or not, with its bytes and index, then completes on the close', async () => {
    const values = [{ a: 1 }, { text: 'café Zürich 中文 😀 𝄞' }, { long: `${'x'.repeat(5000)}é` }, { plain: 'ascii only' }];
    const frames = values.map((v) => Buffer.from(JSON.stringify(v), 'utf8'));
    const seen = await lastValueFrom(
      observeWebSocketFrames(fakeSocket(frames), (value, index, text, bytes) => ({ value, index, text, bytes: Buffer.from(bytes).toString('utf8') }), {
        closeOutcome: (code) => (code === 1000 ? undefined : new Error(`closed ${code}`)),
        socketError: (e) => (e instanceof Error ? e : new Error(String(e))),
      }).pipe(toArray()),
    );
    expect(seen.map((s) => s.value)).toEqual(values);
    expect(seen.map((s) => s.index)).toEqual([0, 1, 2, 3]);
    expect(seen.map((s) => s.text)).toEqual(values.map((v) => JSON.stringify(v)));
    expect(seen.map((s) => s.bytes)).toEqual(values.map((v) => JSON.stringify(v)));
  });
});
