import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';
import { compileUpdateFormat } from '../format/compile-update-format.js';
import type { Ledger } from '../ledger/ledger.js';
import { createUpdateRenderer } from '../render/create-update-renderer.js';
import type { PreparedUpdatesPage } from '../validate/prepare-updates-page.js';
import { updatesPageToken, updatesPageTokenVersion } from '../validate/updates-page-token.js';
import { readUpdates } from './read-updates.js';

/** One page of `POST /v2/updates/get-updates-page`. */
export interface UpdatesPage {
  /** The `JsGetUpdateResponse` texts, in page order. */
  readonly updates: readonly string[];
  readonly lowestPageOffsetExclusive: number;
  readonly highestPageOffsetInclusive: number;
  /** Base64, or `undefined` on the last page. */
  readonly nextPageToken: string | undefined;
}

/** How much larger the first page of an ascending read with a dynamic lower bound is fetched (the server's overfetch factor). */
const firstPageOverfetch = 4;

interface Fetched {
  readonly offset: number;
  readonly json: string;
}

function prunedError(begin: number, end: number, pruned: number): SandboxError {
  return SandboxError.grpc(ErrorDefs.PARTICIPANT_PRUNED_DATA_ACCESSED, `Updates request from ${begin + 1} to ${end} precedes pruned offset ${pruned}`, {
    context: { earliest_offset: String(pruned) },
  });
}

/** The updates in (begin, end], at most `limit`, in the page's order; nothing (and no check) for an empty range. */
async function fetch(ledger: Ledger, page: PreparedUpdatesPage, begin: number, end: number, limit: number, skipPruningCheck: boolean): Promise<Fetched[]> {
  if (end <= begin) return [];
  const renderer = createUpdateRenderer(ledger, compileUpdateFormat(page.updateFormat, ledger.catalog));
  const pruned = ledger.prunedOffset();
  if (!skipPruningCheck && begin < pruned) throw prunedError(begin, end, pruned);
  const out: Fetched[] = [];
  const sink = { element: (json: string, offset: number) => void out.push({ offset, json }), idle() {} };
  await readUpdates(ledger, renderer, { beginExclusive: begin, endInclusive: end, descending: page.descending, cap: limit, idleMs: undefined }, sink, new AbortController().signal);
  return out;
}

function token(page: PreparedUpdatesPage, lowest: number, highest: number): string {
  return updatesPageToken.encode({
    lowestPageOffsetExclusive: lowest,
    highestPageOffsetInclusive: highest,
    version: updatesPageTokenVersion,
    participantChecksum: page.participantChecksum,
    requestChecksum: page.requestChecksum,
  });
}

async function ascending(ledger: Ledger, page: PreparedUpdatesPage): Promise<UpdatesPage> {
  const size = page.maxPageSize;
  const dynamicFirst = page.startExclusive === undefined && page.continueFrom === undefined;
  const limit = dynamicFirst ? (size + 1) * firstPageOverfetch : size + 1;
  let begin = page.continueFrom !== undefined ? page.continueFrom - 1 : (page.startExclusive ?? ledger.prunedOffset());
  const end = page.endInclusive ?? ledger.ledgerEnd();
  let fetched = await fetch(ledger, page, begin, end, limit, dynamicFirst);
  const pruned = ledger.prunedOffset();
  if (dynamicFirst && pruned > 0) {
    const kept = fetched.filter((f) => f.offset > pruned);
    if (!(end < pruned || fetched.length < limit || kept.length >= size + 1)) {
      throw SandboxError.grpc(
        ErrorDefs.PARTICIPANT_PRUNED_DATA_ACCESSED,
        'Pruning offset moves faster than participant is able to generate page. You may want to tweak page size or ask the node administrator to increase ascending_first_page_dynamic_bound_overfetch config setting.',
        { context: { earliest_offset: String(pruned) } },
      );
    }
    fetched = kept;
    begin = pruned;
  }
  const next = fetched[size];
  if (next !== undefined) {
    return { updates: fetched.slice(0, size).map((f) => f.json), lowestPageOffsetExclusive: begin, highestPageOffsetInclusive: next.offset - 1, nextPageToken: token(page, begin, next.offset - 1) };
  }
  return {
    updates: fetched.map((f) => f.json),
    lowestPageOffsetExclusive: begin,
    highestPageOffsetInclusive: end,
    nextPageToken: page.endInclusive === undefined ? token(page, begin, end) : undefined,
  };
}

async function descending(ledger: Ledger, page: PreparedUpdatesPage): Promise<UpdatesPage> {
  const size = page.maxPageSize;
  const dynamic = page.startExclusive === undefined;
  const begin = page.startExclusive ?? ledger.prunedOffset();
  const end = page.continueFrom ?? page.endInclusive ?? ledger.ledgerEnd();
  let fetched = await fetch(ledger, page, begin, end, size + 1, dynamic);
  const pruned = ledger.prunedOffset();
  if (dynamic && pruned > 0) {
    const stop = fetched.findIndex((f) => f.offset <= pruned);
    if (stop >= 0) fetched = fetched.slice(0, stop);
  }
  const next = fetched[size];
  if (next !== undefined) {
    return { updates: fetched.slice(0, size).map((f) => f.json), lowestPageOffsetExclusive: next.offset, highestPageOffsetInclusive: end, nextPageToken: token(page, next.offset, end) };
  }
  return { updates: fetched.map((f) => f.json), lowestPageOffsetExclusive: page.startExclusive ?? pruned, highestPageOffsetInclusive: end, nextPageToken: undefined };
}

/**
 * Computes one page as the participant's index service does (`IndexServiceImpl.updatesPage` and
 * `buildAscendingPage`; docs/websocket-protocol.md §10). Ascending: reads `maxPageSize + 1` updates after
 * the token's upper bound, else after `beginOffsetExclusive`, else after the pruning offset (then without
 * the pruning check, fetching 4× as many and dropping what pruning overtook), up to `endOffsetInclusive` or
 * the ledger end at the time of the request. A full page returns `maxPageSize` updates, the upper bound
 * just below the next update and a token; a short page returns the upper bound of the range and a token
 * only when no `endOffsetInclusive` was given — so an ascending read without an end always has a next
 * token, the way to tail the ledger with HTTP. Descending: the same, newest first, continuing below the
 * token's lower bound; the last page has no token. Filter references and the pruning offset are checked
 * only when something is read (a strict bound below the pruning offset is
 * `PARTICIPANT_PRUNED_DATA_ACCESSED`). Pages carry no checkpoints.
 */
export function readUpdatesPage(ledger: Ledger, page: PreparedUpdatesPage): Promise<UpdatesPage> {
  return page.descending ? descending(ledger, page) : ascending(ledger, page);
}
