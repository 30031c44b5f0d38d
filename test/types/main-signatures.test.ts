import type { Observable } from 'rxjs';
import { describe, expectTypeOf, it } from 'vitest';
import {
  createLedgerClient,
  liveContracts,
  readDescending,
  tailUpdates,
  updateFormat,
  type UpdateFormatBuilder,
  type ActiveContractsRequest,
  type CreatedEvent,
  type GetUpdatesPageRequest,
  type GetUpdatesRequest,
  type JsGetActiveContractsResponse,
  type JsGetUpdatesResponse,
  type JsTransaction,
  type LedgerClient,
  type LedgerClientOptions,
  type LiveContracts,
  type LiveContractsConfig,
  type ReadDescendingConfig,
  type TailUpdatesConfig,
  type UpdateFormat,
  type UpdatesPage,
  type UpdatesSource,
} from '../../src/index.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

/**
 * The main signatures as a user's compiler sees them: what each takes, what it returns, and that a
 * misspelled option is an error. Checked by `npm run typecheck` (tsconfig.json includes test/, and CI runs
 * it before `npm test`); at run time `expectTypeOf` does nothing, so a wrong type fails the typecheck, not
 * this file's tests. Each `@ts-expect-error` fails the typecheck when its line compiles.
 */
describe('the main signatures', () => {
  it('createLedgerClient: options in, a LedgerClient out; baseUrl required, a misspelled option refused', () => {
    expectTypeOf(createLedgerClient).parameters.toEqualTypeOf<[LedgerClientOptions]>();
    expectTypeOf(createLedgerClient).returns.toEqualTypeOf<LedgerClient>();
    expectTypeOf<LedgerClientOptions['baseUrl']>().toEqualTypeOf<string | URL>();
    // @ts-expect-error baseUrl is required
    expectTypeOf(createLedgerClient).toBeCallableWith({});
    // @ts-expect-error misspelled option
    const misspelled = () => createLedgerClient({ baseUrl: 'http://localhost:7575', tokn: 'x' });
    expectTypeOf(misspelled).returns.toEqualTypeOf<LedgerClient>();
    expectTypeOf(createLedgerClient).toBeCallableWith({ baseUrl: new URL('http://localhost:7575'), token: async () => 'x' });
  });

  it('client.updates: a GetUpdatesRequest in, an Observable of JsGetUpdatesResponse out; updatesPage a Promise of one page', () => {
    expectTypeOf<LedgerClient['updates']>().parameter(0).toEqualTypeOf<GetUpdatesRequest>();
    expectTypeOf<LedgerClient['updates']>().returns.toEqualTypeOf<Observable<JsGetUpdatesResponse>>();
    expectTypeOf<LedgerClient['updatesPage']>().parameter(0).toEqualTypeOf<GetUpdatesPageRequest>();
    expectTypeOf<LedgerClient['updatesPage']>().returns.toEqualTypeOf<Promise<UpdatesPage>>();
    expectTypeOf<LedgerClient['activeContracts']>().parameter(0).toEqualTypeOf<ActiveContractsRequest>();
    expectTypeOf<LedgerClient['activeContracts']>().returns.toEqualTypeOf<Observable<JsGetActiveContractsResponse>>();
    // offsets are JSON numbers, in what the client emits and in requests (the request schemas also accept the numeric strings the server accepts)
    expectTypeOf<JsTransaction['offset']>().toEqualTypeOf<number>();
    expectTypeOf<number>().toExtend<GetUpdatesRequest['beginExclusive']>();
    // @ts-expect-error beginExclusive is required
    const incomplete = (client: LedgerClient, format: UpdateFormat) => client.updates({ updateFormat: format });
    expectTypeOf(incomplete).returns.toEqualTypeOf<Observable<JsGetUpdatesResponse>>();
  });

  it('tailUpdates and readDescending: any UpdatesSource (a LedgerClient is one) and a config in, an Observable of JsGetUpdatesResponse out', () => {
    expectTypeOf<LedgerClient>().toExtend<UpdatesSource>();
    expectTypeOf(tailUpdates).parameters.toEqualTypeOf<[UpdatesSource, TailUpdatesConfig]>();
    expectTypeOf(tailUpdates).returns.toEqualTypeOf<Observable<JsGetUpdatesResponse>>();
    expectTypeOf(readDescending).parameters.toEqualTypeOf<[UpdatesSource, ReadDescendingConfig]>();
    expectTypeOf(readDescending).returns.toEqualTypeOf<Observable<JsGetUpdatesResponse>>();
    expectTypeOf<TailUpdatesConfig['beginExclusive']>().toEqualTypeOf<number | 'begin' | 'ledger-end' | undefined>();
    expectTypeOf<ReadDescendingConfig['endInclusive']>().toEqualTypeOf<number | 'ledger-end' | undefined>();
    const misspelled = (client: LedgerClient, format: UpdateFormat) => [
      // @ts-expect-error misspelled option
      tailUpdates(client, { updateFormat: format, pageLimt: 100 }),
      // @ts-expect-error a string offset is not an offset
      readDescending(client, { updateFormat: format, endInclusive: '42' }),
    ];
    expectTypeOf(misspelled).returns.toEqualTypeOf<Observable<JsGetUpdatesResponse>[]>();
  });

  it('liveContracts: a snapshot source (a LedgerClient is one) and an event format in, an Observable of LiveContracts out', () => {
    expectTypeOf(liveContracts).parameter(0).toExtend<Parameters<typeof liveContracts>[0]>();
    expectTypeOf<LedgerClient>().toExtend<Parameters<typeof liveContracts>[0]>();
    expectTypeOf(liveContracts).parameter(1).toEqualTypeOf<LiveContractsConfig>();
    expectTypeOf(liveContracts).returns.toEqualTypeOf<Observable<LiveContracts>>();
    expectTypeOf<LiveContracts['contracts']>().toEqualTypeOf<ReadonlyMap<string, CreatedEvent>>();
    expectTypeOf<LiveContracts['offset']>().toEqualTypeOf<number>();
  });

  it('updateFormat: an immutable builder whose build() gives the wire UpdateFormat', () => {
    expectTypeOf(updateFormat).parameters.toEqualTypeOf<[]>();
    expectTypeOf(updateFormat).returns.toEqualTypeOf<UpdateFormatBuilder>();
    expectTypeOf<UpdateFormatBuilder['build']>().returns.toEqualTypeOf<UpdateFormat>();
    expectTypeOf<UpdateFormatBuilder['transactions']>().returns.toEqualTypeOf<UpdateFormatBuilder>();
    expectTypeOf<UpdateFormat>().toExtend<NonNullable<GetUpdatesRequest['updateFormat']>>();
    // @ts-expect-error the builder has no `transaction` (singular)
    expectTypeOf<UpdateFormatBuilder['transaction']>();
  });

  it('startSandbox: optional options in, a Promise of a Sandbox with its url out', () => {
    expectTypeOf(startSandbox).parameters.toEqualTypeOf<[options?: SandboxOptions]>();
    expectTypeOf(startSandbox).returns.toEqualTypeOf<Promise<Sandbox>>();
    expectTypeOf<Sandbox['url']>().toEqualTypeOf<string>();
    expectTypeOf<Sandbox['close']>().returns.toEqualTypeOf<Promise<void>>();
    // @ts-expect-error misspelled option
    expectTypeOf(startSandbox).toBeCallableWith({ sed: 3 });
  });
});
