import { PassThrough } from 'node:stream';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { contractEntryRow } from '../../src/cli/acs/contract-entry-row.js';
import { completionRow } from '../../src/cli/completions/completion-row.js';
import { createHumanLogger } from '../../src/cli/log/create-human-logger.js';
import { TransportError } from '../../src/errors/transport-error.js';
import { chooseOutputFormat } from '../../src/cli/output/choose-output-format.js';
import { colorSupport } from '../../src/cli/pretty/color-support.js';
import { compactValue } from '../../src/cli/pretty/compact-value.js';
import { eventSpans } from '../../src/cli/pretty/event-spans.js';
import { createPalette } from '../../src/cli/pretty/palette.js';
import { PrettyWriter } from '../../src/cli/pretty/pretty-writer.js';
import { RowRenderer } from '../../src/cli/pretty/row-renderer.js';
import { shortParty } from '../../src/cli/pretty/short-party.js';
import { shortTemplate } from '../../src/cli/pretty/short-template.js';
import { splitRecordTime } from '../../src/cli/pretty/split-record-time.js';
import { updateRow } from '../../src/cli/pretty/update-row.js';
import { formatProgress } from '../../src/cli/report/format-progress.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/updates.js';
import { decodeUpdateElement } from '../../src/updates/decode-update-element.js';

const alice = 'Alice::12206e27a5f0533177fc666fd94ddbc81f65646295532cf548abc22930b3eca6c42d';
const bob = 'Bob::12206aebe6dcf87d35957f504a433e2bc03a5d9714519f252f00fd2c062fd4ca2580';
const pkg = '05c31d5bee6c00550d017f356035876bd7f99965b10a53d9625922cb805ae74d';
const cid = '0000000000000004000000885543ffcb5f83fbe2dbf92f935ba2e5b2b9721e94fb';
const esc = '\u001b';
const plain = createPalette(false);
const strip = (s: string) => s.replace(new RegExp(`${esc}\\[[0-9;]*m`, 'g'), '');

const created = (offset: number, argument: unknown = { issuer: alice, owner: bob, currency: 'USD', amount: '10.0000000000', observers: [] }) => ({
  CreatedEvent: {
    offset,
    nodeId: 0,
    contractId: cid,
    templateId: `${pkg}:Iou:Iou`,
    createArgument: argument,
    witnessParties: [alice],
    signatories: [alice],
    observers: [bob],
    packageName: 'ledger-rx-demo',
    contractKey: null,
    contractKeyHash: '',
    createdEventBlob: '',
    interfaceViews: [],
    createdAt: '2026-11-24T23:16:49.048Z',
    representativePackageId: pkg,
    acsDelta: true,
  },
});
const transaction = (offset: number, events: unknown[], extra: Record<string, unknown> = {}) =>
  ({
    update: {
      Transaction: {
        value: { updateId: `1220${'ab'.repeat(32)}`, commandId: 'transfer-7', workflowId: '', effectiveAt: 't', events, offset, synchronizerId: 's', recordTime: '2026-11-24T23:16:49.048123Z', ...extra },
      },
    },
  }) as unknown as JsGetUpdatesResponse;

describe('the pieces of the human view', () => {
  it.each([
    [alice, 'Alice'],
    [bob, 'Bob'],
    ['Alice', 'Alice'],
    ['Alice::nothex', 'Alice::nothex'],
    ['participant::1220abcd', 'participant::1220abcd'],
  ])('shortParty(%s) = %s', (id, short) => expect(shortParty(id)).toBe(short));

  it('shortParty: a second party with a hint already shown keeps its fingerprint; each party keeps its form', () => {
    const otherAlice = `Alice::1220${'f'.repeat(60)}9f0e`;
    expect(shortParty(alice)).toBe('Alice');
    expect(shortParty(otherAlice)).toBe('Alice::1220…9f0e');
    expect(shortParty(alice)).toBe('Alice');
    expect(compactValue({ a: otherAlice, b: alice })).toBe('{a: Alice::1220…9f0e, b: Alice}');
  });

  it.each([
    [`${pkg}:Iou:Iou`, 'ledger-rx-demo', 'ledger-rx-demo:Iou:Iou'],
    ['#ledger-rx-demo:Asset:Asset', undefined, 'ledger-rx-demo:Asset:Asset'],
    [`${pkg}:Main.Sub:Entity`, undefined, '05c31d5b…:Main.Sub:Entity'],
    ['no-colon', 'pkg', 'no-colon'],
  ])('shortTemplate(%s, %s) = %s', (id, name, short) => expect(shortTemplate(id, name)).toBe(short));

  it.each([
    ['2026-11-24T23:16:49.048123Z', '2026-11-24', '23:16:49.048'],
    ['2026-11-24T23:16:49Z', '2026-11-24', '23:16:49.000'],
    ['2026-11-24T23:16:49.9999999Z', '2026-11-24', '23:16:49.999'],
    ['12026-01-01T00:00:00.5Z', '12026-01-01', '00:00:00.500'],
    ['yesterday', '', 'yesterday'],
  ])('splitRecordTime(%s)', (ts, date, time) => expect(splitRecordTime(ts)).toEqual({ date, time }));

  it.each([
    [{ issuer: alice, amount: '10.0000000000', currency: 'USD', observers: [] }, '{issuer: Alice, amount: 10.0, currency: USD, observers: []}'],
    [{ tag: 'Some', value: { n: '1.50' } }, 'Some({n: 1.5})'],
    [{ tag: 'Unit', value: {} }, 'Unit'],
    [{ note: 'two words', empty: '', quote: 'a"b', cid }, '{note: "two words", empty: "", quote: "a\\"b", cid: #000000…94fb}'],
    [[1, true, null, '-0.000'], '[1, true, null, -0.0]'],
  ])('compactValue(%j)', (value, text) => expect(compactValue(value)).toBe(text));

  it('compactValue stops at its budget', () => {
    const big = { items: Array.from({ length: 10_000 }, (_, i) => `item-${i}`) };
    const text = compactValue(big, 50);
    expect(text).toHaveLength(51);
    expect(text.endsWith('…')).toBe(true);
  });

  it.each([
    ['a terminal', { isTTY: true, env: {} }, true],
    ['a terminal that says it has none', { isTTY: true, hasColors: false, env: {} }, false],
    ['a pipe', { isTTY: false, env: {} }, false],
    ['NO_COLOR on a terminal', { isTTY: true, env: { NO_COLOR: '1' } }, false],
    ['an empty NO_COLOR', { isTTY: true, env: { NO_COLOR: '' } }, true],
    ['TERM=dumb', { isTTY: true, env: { TERM: 'dumb' } }, false],
    ['FORCE_COLOR into a pipe', { isTTY: false, env: { FORCE_COLOR: '1' } }, true],
    ['an empty FORCE_COLOR', { isTTY: false, env: { FORCE_COLOR: '' } }, true],
    ['FORCE_COLOR over NO_COLOR', { isTTY: true, env: { FORCE_COLOR: '2', NO_COLOR: '1' } }, true],
    ['FORCE_COLOR=0 on a terminal', { isTTY: true, env: { FORCE_COLOR: '0' } }, false],
    ['FORCE_COLOR=false', { isTTY: true, env: { FORCE_COLOR: 'false' } }, false],
  ])('colorSupport: %s', (_name, facts, colors) => expect(colorSupport(facts)).toBe(colors));

  it.each([
    [undefined, true, undefined, 'pretty'],
    [undefined, true, '-', 'pretty'],
    [undefined, false, undefined, 'ndjson'],
    [undefined, true, 'out.txt', 'ndjson'],
    ['ndjson', true, undefined, 'ndjson'],
    ['pretty', false, 'out.txt', 'pretty'],
  ] as const)('chooseOutputFormat(%s, tty %s, out %s) = %s', (flag, tty, out, format) =>
    expect(chooseOutputFormat(flag, { stdoutIsTTY: tty, out })).toBe(format),
  );

  it('formatProgress puts the transport first when known', () => {
    expect(formatProgress({ transport: 'websocket', count: 1234, rate: 20, lastOffset: 98765, ledgerEnd: 98765 })).toBe('websocket · 1,234 updates · 20.0/s · offset 98,765 · lag 0');
  });
});

describe('eventSpans and updateRow', () => {
  const text = (spans: { text: string }[]) => spans.map((s) => s.text).join('');

  it('draws created, archived and exercised events with the template, the parties and the argument', () => {
    expect(text(eventSpans(created(6)))).toBe('created    ledger-rx-demo:Iou:Iou Alice {issuer: Alice, owner: Bob, currency: USD, amount: 10.0, observers: []}');
    expect(text(eventSpans({ ArchivedEvent: { offset: 6, contractId: cid, templateId: `${pkg}:Iou:Iou`, packageName: 'ledger-rx-demo' } }))).toBe('archived   ledger-rx-demo:Iou:Iou #000000…94fb');
    const exercise = { ExercisedEvent: { contractId: cid, templateId: `${pkg}:Iou:Iou`, choice: 'Transfer', choiceArgument: { newOwner: bob }, actingParties: [alice], consuming: true, packageName: 'ledger-rx-demo' } };
    expect(text(eventSpans(exercise))).toBe('consumed   ledger-rx-demo:Iou:Iou.Transfer Alice {newOwner: Bob}');
    expect(eventSpans(created(6)).find((s) => s.shrink === 2)?.style).toBe('value');
  });

  it('draws reassignment and topology events, and an unknown event by its tag', () => {
    const assigned = { JsAssignmentEvent: { source: 's1', target: 's2', reassignmentId: 'r', submitter: alice, reassignmentCounter: 1, createdEvent: created(3).CreatedEvent } };
    expect(text(eventSpans(assigned))).toMatch(/^assigned {3}ledger-rx-demo:Iou:Iou Alice \{issuer/);
    const unassigned = { JsUnassignedEvent: { value: { contractId: cid, templateId: `${pkg}:Iou:Iou`, packageName: 'ledger-rx-demo', source: 'global::1220aa', target: 'other::1220bb' } } };
    expect(text(eventSpans(unassigned))).toBe('unassigned ledger-rx-demo:Iou:Iou #000000…94fb global::1220aa → other::1220bb');
    const added = { ParticipantAuthorizationAdded: { value: { partyId: alice, participantId: `participant1::1220${'c'.repeat(64)}`, participantPermission: 'PARTICIPANT_PERMISSION_SUBMISSION' } } };
    expect(text(eventSpans(added))).toBe('authorized Alice on participant1 submission');
    expect(text(eventSpans({ FutureEvent: { a: 1 } }))).toBe('FutureEvent');
    expect(text(eventSpans('nonsense'))).toBe('event');
  });

  it('one row per update: offset, time, kind, command id, up to three events, the rest counted', () => {
    const { row, date } = updateRow(transaction(6, [created(6), created(6), created(6), created(6), created(6)]));
    expect(date).toBe('2026-11-24');
    expect(row.cells.map((c) => c.text)).toEqual(['6', '23:16:49.048', 'tx', 'transfer-7']);
    expect(text([...row.spans]).split(' │ ')).toHaveLength(3);
    expect(text([...row.spans]).endsWith(' +2 more')).toBe(true);
  });

  it('falls back to the workflow id, then to the update id; checkpoints are muted rows; unknown kinds are named', () => {
    expect(updateRow(transaction(1, [], { commandId: '', workflowId: 'wf-9' })).row.cells[3]?.text).toBe('wf-9');
    expect(updateRow(transaction(1, [], { commandId: null })).row.cells[3]?.text).toBe('1220abab…abab');
    const checkpoint = updateRow({ update: { OffsetCheckpoint: { value: { offset: 9, synchronizerTimes: [{ synchronizerId: 's', recordTime: '2026-11-25T00:00:01Z' }] } } } } as unknown as JsGetUpdatesResponse);
    expect(checkpoint.row.muted).toBe(true);
    expect(checkpoint.row.cells.map((c) => c.text)).toEqual(['9', '00:00:01.000', 'checkpoint', '']);
    expect(checkpoint.date).toBe('2026-11-25');
    const future = decodeUpdateElement({ update: { FutureUpdate: { value: { offset: 12, recordTime: '2026-11-24T00:00:00Z' } } } }, 0, { validate: false });
    expect(updateRow(future).row.cells.map((c) => c.text).slice(0, 3)).toEqual(['12', '00:00:00.000', 'FutureUpdate']);
  });

  it('reads validated elements alike (unknown events inside a transaction included)', () => {
    const raw = JSON.parse(JSON.stringify(transaction(6, [created(6), { FutureEvent: { offset: 6 } }])));
    const validated = decodeUpdateElement(raw, 0, { validate: true });
    const unvalidated = decodeUpdateElement(JSON.parse(JSON.stringify(raw)), 0, { validate: false });
    expect(text([...updateRow(validated).row.spans])).toBe(text([...updateRow(unvalidated).row.spans]));
    expect(text([...updateRow(validated).row.spans])).toContain(' │ FutureEvent');
  });
});

describe('RowRenderer', () => {
  it('aligns the columns, keeps every line within the width, and shares the width among the arguments', () => {
    const renderer = new RowRenderer(plain, () => 100);
    const rows = [transaction(7, [created(7)]), transaction(1234567, [{ ArchivedEvent: { contractId: cid, templateId: `${pkg}:Iou:Iou`, packageName: 'ledger-rx-demo' } }, created(1234567)])];
    const [a, b] = rows.map((r) => renderer.render(updateRow(r).row));
    expect(stringWidth(a as string)).toBe(100);
    expect(stringWidth(b as string)).toBe(100);
    expect((a as string).indexOf('23:16')).toBe((b as string).indexOf('23:16') - 1); // the offset column grew by one past six digits
    // narrow: templates without their package, then the argument cut
    expect(a).toBe('     7  23:16:49.048  tx  transfer-7  created    Iou:Iou Alice {issuer: Alice, owner: Bob, currency…');
    expect(a?.endsWith('…')).toBe(true);
    // two events on 100 columns: the short forms (template without its package, the id's end)
    expect(b).toMatch(/ {2}archived {3}Iou:Iou #…94fb │ created {4}Iou:Iou Alice \{issuer…$/);
    // on a wide terminal, the full forms
    const wide = new RowRenderer(plain, () => 250).render(updateRow(rows[1] as JsGetUpdatesResponse).row);
    expect(wide).toMatch(/archived {3}ledger-rx-demo:Iou:Iou #000000…94fb │ created {4}ledger-rx-demo:Iou:Iou Alice \{issuer: Alice, owner: Bob, currency: USD, amount: 10.0, observers: \[\]\}$/);
  });

  it('measures wide characters by their display width and never cuts one in half', () => {
    const renderer = new RowRenderer(plain, () => 40);
    const line = renderer.render({ cells: [{ text: '1' }], spans: [{ text: '名前'.repeat(30), shrink: 3 }] });
    expect(stringWidth(line)).toBeLessThanOrEqual(40);
    expect(line).not.toContain('\uFFFD');
  });

  it('colours after the layout: the escape codes do not count, the text is the same', () => {
    const coloured = new RowRenderer(createPalette(true), () => 90).render(updateRow(transaction(5, [created(5)])).row);
    const uncoloured = new RowRenderer(plain, () => 90).render(updateRow(transaction(5, [created(5)])).row);
    expect(coloured).toContain(`${esc}[`);
    expect(strip(coloured)).toBe(uncoloured);
  });
});

describe('PrettyWriter', () => {
  it('writes a date line before the first update of each day, one line per update, and keeps the status line out of the data', async () => {
    const stream = new PassThrough();
    let out = '';
    stream.setEncoding('utf8').on('data', (d: string) => (out += d));
    const events: string[] = [];
    const writer = new PrettyWriter(stream, { palette: plain, columns: () => 100, surface: { clear: () => events.push('clear'), redrawSoon: () => events.push('redraw') } });
    writer.write(transaction(1, [created(1)]));
    writer.write(transaction(2, [created(2)]));
    writer.write(transaction(3, [created(3)], { recordTime: '2026-11-25T00:00:00Z' }));
    await writer.flush();
    const lines = out.split('\n').filter((l) => l !== '');
    expect(lines.map((l) => l.slice(0, 22))).toEqual(['── 2026-11-24 (UTC) ──', '     1  23:16:49.048  ', '     2  23:16:49.048  ', '── 2026-11-25 (UTC) ──', '     3  00:00:00.000  ']);
    expect(writer.count).toBe(3);
    expect(writer.bytes).toBe(Buffer.byteLength(out));
    expect(events).toEqual(['clear', 'redraw', 'clear', 'redraw', 'clear', 'redraw']);
  });
});

describe('createHumanLogger', () => {
  it('writes one readable line per call, with the fields redacted like the JSON logger', () => {
    const lines: string[] = [];
    const logger = createHumanLogger({ level: 'info', write: (l) => lines.push(l), paint: (_s, t) => t, now: () => new Date(2026, 0, 2, 3, 4, 5).getTime() });
    logger.info({ url: 'http://127.0.0.1:7575', token: 'secret-jwt', err: new Error('boom') }, 'embedded sandbox started');
    logger.debug({}, 'not shown');
    logger.warn({ note: 'two words' }, 'careful');
    logger.warn({ attempt: 1, err: new TransportError('CONNECTION_FAILED', 'POST /v2/updates: could not connect (ECONNREFUSED)') }, 'request failed; retrying');
    expect(lines).toEqual([
      '03:04:05 info  embedded sandbox started url=http://127.0.0.1:7575 token=[redacted] — boom\n',
      '03:04:05 warn  careful note="two words"\n',
      // an error is text at the end of the line, not JSON
      '03:04:05 warn  request failed; retrying attempt=1 — CONNECTION_FAILED: POST /v2/updates: could not connect (ECONNREFUSED)\n',
    ]);
  });
});

describe('the rows of acs and completions', () => {
  const text = (spans: readonly { text: string }[]) => spans.map((s) => s.text).join('');

  it('acs: an active contract as in tail: offset, kind, short id, template, signatories, argument', () => {
    const entry = { workflowId: '', contractEntry: { JsActiveContract: { createdEvent: created(6).CreatedEvent, synchronizerId: 's', reassignmentCounter: 0 } } };
    const row = contractEntryRow(entry as never);
    expect(row.cells.map((c) => c.text)).toEqual(['6', 'active', '#000000…94fb']);
    expect(text(row.spans)).toBe('ledger-rx-demo:Iou:Iou Alice {issuer: Alice, owner: Bob, currency: USD, amount: 10.0, observers: []}');
    const narrow = new RowRenderer(plain, () => 60).render(row);
    expect(narrow).toBe('     6  active  #000000…94fb  Iou:Iou Alice {issuer: Alice,…');
  });

  it('completions: ok with the update, FAILED with the code and the cause; a checkpoint has no row', () => {
    const completion = (status: { code: number; message: string }, updateId: string) => ({
      completionResponse: { Completion: { value: { commandId: 'workload-3', status, updateId, userId: 'u', actAs: [alice], submissionId: 's', offset: 42, synchronizerTime: { synchronizerId: 'x', recordTime: '2026-11-24T23:16:49.048Z' } } } },
    });
    const ok = completionRow(completion({ code: 0, message: '' }, `1220${'ab'.repeat(32)}`) as never);
    expect(ok?.cells.map((c) => c.text)).toEqual(['42', '23:16:49.048', 'ok', 'workload-3']);
    expect(text(ok?.spans ?? [])).toBe('Alice update 1220abab…abab');
    const failed = completionRow(completion({ code: 6, message: 'DUPLICATE_COMMAND(10,abc): Command submission already exists.' }, '') as never);
    expect(failed?.cells[2]?.text).toBe('FAILED');
    expect(text(failed?.spans ?? [])).toBe('DUPLICATE_COMMAND Alice Command submission already exists.');
    expect(completionRow({ completionResponse: { OffsetCheckpoint: { value: { offset: 43, synchronizerTimes: [] } } } } as never)).toBeUndefined();
  });
});
