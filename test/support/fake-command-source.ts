import { defer, of, Subject, type Observable } from 'rxjs';
import type { CommandSource, CompletionsReadOptions } from '../../src/operators/index.js';
import type { CompletionStreamRequest, CompletionStreamResponse, GetCompletionsRequest, JsCommands } from '../../src/schemas/index.js';

/** A completion of `commandId` (submission `submissionId`) at `offset`; `code` non-zero makes it a failure. */
export function completionAt(offset: number, commandId: string, submissionId: string, code = 0, actAs: readonly string[] = ['Alice::1220aa']): CompletionStreamResponse {
  const status = code === 0 ? { code: 0, message: '', details: [] } : { code, message: `LOCAL_VERDICT_LOCKED_CONTRACTS(2,abcd1234): contention`, details: [] };
  return {
    completionResponse: {
      Completion: { value: { commandId, submissionId, userId: 'alice', actAs: [...actAs], status, updateId: code === 0 ? `u-${offset}` : '', offset } },
    },
  } as unknown as CompletionStreamResponse;
}

/** A checkpoint of a completion stream. */
export function completionCp(offset: number): CompletionStreamResponse {
  return { completionResponse: { OffsetCheckpoint: { value: { offset, synchronizerTimes: [] } } } } as unknown as CompletionStreamResponse;
}

/** One recorded call of a {@link fakeCommandSource}, in the order they happened. */
export type CommandSourceEvent =
  | { readonly kind: 'completions'; readonly request: GetCompletionsRequest | CompletionStreamRequest; readonly options: CompletionsReadOptions | undefined }
  | { readonly kind: 'submit'; readonly commands: JsCommands };

/**
 * A fake {@link CommandSource}: `completions()` call number i (0-based) returns `reads[i](request)`,
 * `submit()` returns `submit(commands)`, the ledger end is `ledgerEnd`; every call is logged in order.
 */
export function fakeCommandSource(
  reads: ((request: GetCompletionsRequest | CompletionStreamRequest, options: CompletionsReadOptions | undefined) => Observable<CompletionStreamResponse>)[],
  submit: (commands: JsCommands) => Observable<unknown> = () => of({}),
  ledgerEnd = 10,
): CommandSource & { log: CommandSourceEvent[] } {
  const log: CommandSourceEvent[] = [];
  let n = 0;
  return {
    log,
    completions: (request, options) =>
      defer(() => {
        log.push({ kind: 'completions', request, options });
        const read = reads[n++];
        if (!read) throw new Error(`unexpected completions call #${n}`);
        return read(request, options);
      }),
    submit: (commands) =>
      defer(() => {
        log.push({ kind: 'submit', commands });
        return submit(commands);
      }),
    ledgerEnd: () => of({ offset: ledgerEnd }),
  };
}

/**
 * A participant in miniature for `trackCommands`: one endless completion stream (a `Subject`) per
 * `completions()` call, and a `submit` that answers with `answer(commands)` and, unless `complete` returns
 * `undefined`, puts the completion it returns on every open stream (as the participant does after accepting).
 */
export function miniParticipant(
  complete: (commands: JsCommands, offset: number) => CompletionStreamResponse | undefined,
  answer: (commands: JsCommands) => Observable<unknown> = () => of({}),
  ledgerEnd = 10,
): CommandSource & { log: CommandSourceEvent[] } {
  const streams: Subject<CompletionStreamResponse>[] = [];
  let offset = ledgerEnd;
  const reads = Array.from({ length: 10 }, () => () => {
    const stream = new Subject<CompletionStreamResponse>();
    streams.push(stream);
    return stream;
  });
  return fakeCommandSource(
    reads,
    (commands) => {
      const completion = complete(commands, ++offset);
      if (completion !== undefined) for (const s of streams) s.next(completion);
      return answer(commands);
    },
    ledgerEnd,
  );
}
