import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import * as d from '../../src/daml/index.js';
import { updateFormat } from '../../src/filters/index.js';

/** createdOf / archivedOf / exercisedOf over update elements as the participant sends them. */
type Profile = { nickname: string; level: d.Int64 };
type Rich = { owner: d.Party; amount: d.Numeric; note: d.Optional<string>; profile: Profile; tags: string[]; fee: d.Optional<d.Numeric> };
type Relabel = { newLabel: string };
const pkg = 'ab'.repeat(32);
const Relabel = d.record<Relabel>({ newLabel: d.text });
const Rich = d.template({
  packageId: pkg,
  packageName: 'richtypes',
  moduleName: 'RichTypes',
  entityName: 'RichRecord',
  schema: d.record<Rich>({ owner: d.party, amount: d.numeric(10), note: d.optional(d.text), profile: d.record<Profile>({ nickname: d.text, level: d.int64 }), tags: d.list(d.text), fee: d.optional(d.numeric(2)) }),
  choices: {
    Archive: d.choice<d.Unit, d.Unit>({ name: 'Archive', consuming: true, templateId: '#richtypes:RichTypes:RichRecord', argument: d.unit, result: d.unit }),
    Relabel: d.choice<Relabel, d.ContractId<Rich>>({ name: 'Relabel', consuming: false, templateId: '#richtypes:RichTypes:RichRecord', argument: Relabel, result: d.contractId<Rich>() }),
  },
  implements: [],
});

const created = (contractId: string, templateId: string, createArgument: unknown, packageName = 'richtypes') => ({
  CreatedEvent: { offset: 1, nodeId: 0, contractId, templateId, createArgument, witnessParties: ['Alice'], signatories: ['Alice'], createdAt: '2026-01-01T00:00:00Z', packageName, representativePackageId: pkg, acsDelta: true },
});
const tx = (offset: number, events: unknown[]) => ({ update: { Transaction: { value: { updateId: `u${offset}`, offset, events } } } });
// the participant drops the trailing None (`fee`) and writes the inner one (`note`) as null
const payload = { owner: 'Alice::1220', amount: '1.5000000000', note: null, profile: { nickname: 'al', level: '3' }, tags: ['a'] };

describe('typed update operators', () => {
  it('createdOf: the creates of the template, typed and validated; other templates, packages and updates emit nothing', async () => {
    const elements = [
      tx(1, [created('c1', `${pkg}:RichTypes:RichRecord`, payload), created('m1', `${pkg}:RichTypes:Marker`, { owner: 'Alice' })]),
      { update: { OffsetCheckpoint: { value: { offset: 2, synchronizerTimes: [] } } } },
      tx(3, [created('c2', `${'cd'.repeat(32)}:RichTypes:RichRecord`, payload)]), // a newer version of the package: same name
      tx(4, [created('x1', `${'ef'.repeat(32)}:RichTypes:RichRecord`, payload, 'other-package')]),
    ];
    const out = await lastValueFrom(from(elements).pipe(d.createdOf(Rich), toArray()));
    expect(out.map((c) => c.contractId)).toEqual(['c1', 'c2']);
    expect(out[0]!.payload).toEqual({ ...payload, fee: null });
    expect(out[0]!.event.templateId).toBe(`${pkg}:RichTypes:RichRecord`);
  });

  it('createdOf: a payload that does not match is a DamlValueError with the field path', async () => {
    const bad = { ...payload, profile: { nickname: 'al', level: 3 } };
    const error = await lastValueFrom(from([tx(1, [created('c1', `${pkg}:RichTypes:RichRecord`, bad)])]).pipe(d.createdOf(Rich))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(d.DamlValueError);
    expect((error as d.DamlValueError).code).toBe('DAML_VALUE_MISMATCH');
    expect((error as d.DamlValueError).path).toBe('profile.level');
    expect((error as d.DamlValueError).contractId).toBe('c1');
  });

  it('archivedOf: ArchivedEvents and consuming exercises of the template', async () => {
    const elements = [
      tx(1, [{ ArchivedEvent: { offset: 1, nodeId: 0, contractId: 'c1', templateId: `${pkg}:RichTypes:RichRecord`, witnessParties: [], packageName: 'richtypes' } }]),
      tx(2, [{ ArchivedEvent: { offset: 2, nodeId: 0, contractId: 'm1', templateId: `${pkg}:RichTypes:Marker`, witnessParties: [], packageName: 'richtypes' } }]),
      tx(3, [
        { ExercisedEvent: { offset: 3, nodeId: 0, contractId: 'c2', templateId: `${pkg}:RichTypes:RichRecord`, choice: 'Archive', choiceArgument: {}, actingParties: [], consuming: true, witnessParties: [], lastDescendantNodeId: 0, exerciseResult: {}, packageName: 'richtypes', acsDelta: true } },
        { ExercisedEvent: { offset: 3, nodeId: 1, contractId: 'c3', templateId: `${pkg}:RichTypes:RichRecord`, choice: 'Relabel', choiceArgument: { newLabel: 'x' }, actingParties: [], consuming: false, witnessParties: [], lastDescendantNodeId: 1, exerciseResult: 'c4', packageName: 'richtypes', acsDelta: false } },
      ]),
    ];
    const archived = await lastValueFrom(from(elements).pipe(d.archivedOf(Rich), toArray()));
    expect(archived.map((a) => a.contractId)).toEqual(['c1', 'c2']);
    const relabels = await lastValueFrom(from(elements).pipe(d.exercisedOf(Rich.choices.Relabel), toArray()));
    expect(relabels).toHaveLength(1);
    expect(relabels[0]!.argument).toEqual({ newLabel: 'x' });
    expect(relabels[0]!.result).toBe('c4');
    const bad = tx(5, [{ ExercisedEvent: { offset: 5, nodeId: 0, contractId: 'c3', templateId: `${pkg}:RichTypes:RichRecord`, choice: 'Relabel', choiceArgument: { newLabel: 5 }, actingParties: [], consuming: false, witnessParties: [], lastDescendantNodeId: 0, packageName: 'richtypes', acsDelta: false } }]);
    const error = await lastValueFrom(from([bad]).pipe(d.exercisedOf(Rich.choices.Relabel))).catch((e: unknown) => e);
    expect((error as d.DamlValueError).path).toBe('newLabel');
  });

  it('the filter builder takes generated descriptors', () => {
    const Holding = { interfaceId: '#splice-api-token-holding-v1:Splice.Api.Token.HoldingV1:Holding' };
    const byDescriptor = updateFormat().transactions((t) => t.parties('Alice').template(Rich).interface(Holding, { includeInterfaceView: true })).build();
    const byId = updateFormat().transactions((t) => t.parties('Alice').template('#richtypes:RichTypes:RichRecord').interface(Holding.interfaceId, { includeInterfaceView: true })).build();
    expect(byDescriptor).toEqual(byId);
    expect(JSON.stringify(byDescriptor)).toContain('"templateId":"#richtypes:RichTypes:RichRecord"');
  });
});
