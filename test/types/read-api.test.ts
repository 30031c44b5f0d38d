import type { Observable } from 'rxjs';
import { describe, expectTypeOf, it } from 'vitest';
import { allVettedPackages } from '../../src/index.js';
import type {
  ActiveContractsOptions,
  AllVettedPackagesConfig,
  ActiveContractsPage,
  ActiveContractsPageAnswer,
  ActiveContractsTransport,
  CompletionsOptions,
  CompletionsTransport,
  GetUpdatesRequest,
  JsGetUpdatesResponse,
  LedgerClient,
  ListVettedPackagesRequest,
  ReadTransport,
  StreamReadOptions,
  StreamUpdatesOptions,
  TailUpdatesConfig,
  Transport,
  TransportOption,
  UpdatesCallOptions,
  UpdatesOptions,
  UpdatesPage,
  UpdatesPageAnswer,
  UpdatesPageCallOptions,
  UpdatesPageOptions,
  UpdatesSource,
  VettedPackages,
  VettedPackagesSource,
} from '../../src/index.js';

/**
 * The read API as a user's compiler sees it (checked by `npm run typecheck`; `expectTypeOf` does nothing at
 * run time): one `Transport` type, each read's options named after its method, and the names of the previous
 * release still compiling as aliases of the new ones.
 */
describe('the read API', () => {
  it('one Transport type; each read narrows it', () => {
    expectTypeOf<Transport>().toEqualTypeOf<'websocket' | 'page' | 'list' | 'auto'>();
    expectTypeOf<NonNullable<UpdatesOptions['transport']>>().toEqualTypeOf<Exclude<Transport, 'auto'>>();
    expectTypeOf<NonNullable<ActiveContractsOptions['transport']>>().toEqualTypeOf<Exclude<Transport, 'auto'>>();
    expectTypeOf<NonNullable<CompletionsOptions['transport']>>().toEqualTypeOf<Extract<Transport, 'websocket' | 'list'>>();
    expectTypeOf<NonNullable<TailUpdatesConfig['transport']>>().toEqualTypeOf<Transport>();
  });

  it('client.updates(request, { transport }): the options named after the method; updatesPage one page', () => {
    expectTypeOf<LedgerClient['updates']>().parameters.toEqualTypeOf<[GetUpdatesRequest, UpdatesOptions?]>();
    expectTypeOf<LedgerClient['updates']>().returns.toEqualTypeOf<Observable<JsGetUpdatesResponse>>();
    expectTypeOf<LedgerClient['iterateUpdates']>().parameters.toEqualTypeOf<[GetUpdatesRequest, UpdatesOptions?]>();
    expectTypeOf<LedgerClient['updatesPage']>().parameter(1).toEqualTypeOf<UpdatesPageOptions | undefined>();
    expectTypeOf<LedgerClient['updatesPage']>().returns.toEqualTypeOf<Promise<UpdatesPage>>();
    const misspelled = (client: LedgerClient, request: GetUpdatesRequest) => [
      client.updates(request, { transport: 'page', pageSize: 500 }),
      // @ts-expect-error 'auto' is the operators' choice, not a transport of one attempt
      client.updates(request, { transport: 'auto' }),
      // @ts-expect-error misspelled transport
      client.updates(request, { transport: 'websockets' }),
    ];
    expectTypeOf(misspelled).returns.toEqualTypeOf<Observable<JsGetUpdatesResponse>[]>();
  });

  it('a LedgerClient is an UpdatesSource whose updates() serves the websocket, and its pages are the one UpdatesPage', () => {
    expectTypeOf<LedgerClient>().toExtend<UpdatesSource>();
    expectTypeOf<UpdatesSource['transports']>().toEqualTypeOf<readonly Exclude<Transport, 'auto'>[] | undefined>();
    expectTypeOf<Parameters<UpdatesSource['updates']>[1]>().toEqualTypeOf<UpdatesOptions | undefined>(); // the client's options, for any source
  });

  it('the deprecated names are aliases of the new ones', () => {
    expectTypeOf<UpdatesCallOptions>().toEqualTypeOf<UpdatesOptions>();
    expectTypeOf<StreamUpdatesOptions>().toEqualTypeOf<UpdatesOptions>();
    expectTypeOf<UpdatesPageCallOptions>().toEqualTypeOf<UpdatesPageOptions>();
    expectTypeOf<UpdatesPageAnswer>().toEqualTypeOf<UpdatesPage>();
    expectTypeOf<ActiveContractsPageAnswer>().toEqualTypeOf<ActiveContractsPage>();
    expectTypeOf<StreamReadOptions>().toEqualTypeOf<UpdatesOptions>();
    expectTypeOf<ReadTransport>().toEqualTypeOf<'websocket' | 'page' | 'list'>();
    expectTypeOf<ActiveContractsTransport>().toEqualTypeOf<'websocket' | 'page' | 'list'>();
    expectTypeOf<CompletionsTransport>().toEqualTypeOf<'websocket' | 'list'>();
    expectTypeOf<TransportOption>().toEqualTypeOf<Transport>();
    expectTypeOf<LedgerClient['streamUpdates']>().toEqualTypeOf<LedgerClient['updates']>();
  });
});

describe('allVettedPackages', () => {
  it('takes a LedgerClient (any VettedPackagesSource) and a ListVettedPackagesRequest, and gives an Observable of VettedPackages', () => {
    expectTypeOf<LedgerClient>().toExtend<VettedPackagesSource>();
    expectTypeOf(allVettedPackages).parameters.toEqualTypeOf<[VettedPackagesSource, ListVettedPackagesRequest, AllVettedPackagesConfig?]>();
    expectTypeOf(allVettedPackages).returns.toEqualTypeOf<Observable<VettedPackages>>();
  });
});
