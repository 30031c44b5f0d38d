import type { Observable } from 'rxjs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  isUnknownVariant,
  tailUpdates,
  type ArchivedEvent,
  type Completion,
  type CompletionResponse,
  type CreatedEvent,
  type Event,
  type ExercisedEvent,
  type GetUpdatesRequest,
  type JsCommands,
  type JsContractEntry,
  type JsGetActiveContractsResponse,
  type JsGetUpdatesResponse,
  type JsReassignment,
  type JsTopologyTransaction,
  type JsTransaction,
  type OffsetCheckpoint,
  type UnknownVariant,
  type Update,
  type UpdateFormat,
} from '../../src/index.js';
import * as schemas from '../../src/schemas/index.js';
import { wireSchema, type WireSchema } from '../../src/schemas/wire-schema.js';

/**
 * The wire model's named types (src/schemas/wire-types.ts, generated from the spec) as a user's compiler sees
 * them: no index signature, so a misspelled field does not compile; the updates stream's element a union
 * narrowed by its alternative's name; each schema of `ledger-rx/schemas` the validator of the type of the same
 * name; and a schema that drifts from its type refused where it is declared. Checked by `npm run typecheck`
 * (each `@ts-expect-error` fails the typecheck when its line compiles); the few run-time lines check that the
 * values used here are what the schemas give.
 */
describe('the wire model types', () => {
  it('refuse a misspelled field: tx.comandId, tx.offsett, an event\'s createArgumentt', () => {
    const read = (tx: JsTransaction, created: CreatedEvent) => [
      // @ts-expect-error misspelled commandId
      tx.comandId,
      // @ts-expect-error misspelled offset
      tx.offsett,
      // @ts-expect-error misspelled createArgument
      created.createArgumentt,
      tx.commandId,
      tx.offset,
      created.createArgument,
    ];
    expectTypeOf(read).toBeFunction();
    expectTypeOf<JsTransaction['offset']>().toEqualTypeOf<number>();
    expectTypeOf<JsTransaction['commandId']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<CreatedEvent['createArgument']>().toEqualTypeOf<schemas.JsonValue>();
    expectTypeOf<CreatedEvent['contractKey']>().toEqualTypeOf<schemas.JsonValue | undefined>();
    expectTypeOf<JsTransaction>().not.toHaveProperty('comandId');
    // No index signature: an arbitrary key is not a property.
    expectTypeOf<keyof JsTransaction>().toEqualTypeOf<
      | 'updateId' | 'commandId' | 'workflowId' | 'effectiveAt' | 'events' | 'offset' | 'synchronizerId' | 'traceContext'
      | 'recordTime' | 'externalTransactionHash' | 'paidTrafficCost' | 'transactionHash'
    >();
  });

  it('refuse a misspelled field in a request literal', () => {
    // @ts-expect-error misspelled beginExclusive
    const request: GetUpdatesRequest = { beginExclusve: 0 };
    // @ts-expect-error misspelled commandId
    const commands: JsCommands = { commands: [], comandId: 'c', actAs: ['Alice'] };
    expectTypeOf([request, commands]).items.toEqualTypeOf<GetUpdatesRequest | JsCommands>();
  });

  it("the updates stream's element: tailUpdates emits JsGetUpdatesResponse, whose update is a union narrowed by the alternative's name", () => {
    expectTypeOf(tailUpdates).returns.toEqualTypeOf<Observable<JsGetUpdatesResponse>>();
    expectTypeOf<JsGetUpdatesResponse['update']>().toEqualTypeOf<Update>();
    const kindOf = (element: JsGetUpdatesResponse): string => {
      const update = element.update;
      if ('Transaction' in update) {
        expectTypeOf(update.Transaction.value).toEqualTypeOf<JsTransaction>();
        for (const event of update.Transaction.value.events) {
          expectTypeOf(event).toEqualTypeOf<Event>();
          if ('CreatedEvent' in event) expectTypeOf(event.CreatedEvent).toEqualTypeOf<CreatedEvent>();
          else if ('ArchivedEvent' in event) expectTypeOf(event.ArchivedEvent).toEqualTypeOf<ArchivedEvent>();
          else if ('ExercisedEvent' in event) expectTypeOf(event.ExercisedEvent).toEqualTypeOf<ExercisedEvent>();
          else expectTypeOf(event).toEqualTypeOf<UnknownVariant>();
        }
        return 'transaction';
      }
      if ('Reassignment' in update) {
        expectTypeOf(update.Reassignment.value).toEqualTypeOf<JsReassignment>();
        return 'reassignment';
      }
      if ('TopologyTransaction' in update) {
        expectTypeOf(update.TopologyTransaction.value).toEqualTypeOf<JsTopologyTransaction>();
        return 'topology';
      }
      if ('OffsetCheckpoint' in update) {
        expectTypeOf(update.OffsetCheckpoint.value).toEqualTypeOf<OffsetCheckpoint>();
        return 'checkpoint';
      }
      // Every known alternative is handled: what is left is a kind from a newer server.
      expectTypeOf(update).toEqualTypeOf<UnknownVariant>();
      expect(isUnknownVariant(update)).toBe(true);
      return update.unknownVariant;
    };
    const element = schemas.JsGetUpdatesResponse.parse({ update: { SynchronizerUpgrade: { value: { offset: 3 } } } });
    expect(kindOf(element)).toBe('SynchronizerUpgrade');
    expect(kindOf({ update: { OffsetCheckpoint: { value: { offset: 4 } } } })).toBe('checkpoint');
  });

  it('the other streams\' elements narrow the same way', () => {
    const entry = (response: JsGetActiveContractsResponse) =>
      'JsActiveContract' in response.contractEntry ? response.contractEntry.JsActiveContract.createdEvent : undefined;
    expectTypeOf(entry).returns.toEqualTypeOf<CreatedEvent | undefined>();
    const completion = (response: CompletionResponse) => ('Completion' in response ? response.Completion.value : undefined);
    expectTypeOf(completion).returns.toEqualTypeOf<Completion | undefined>();
    expectTypeOf<Exclude<JsContractEntry, UnknownVariant>>().toEqualTypeOf<
      | { JsActiveContract: schemas.JsActiveContract }
      | { JsEmpty: schemas.JsEmpty }
      | { JsIncompleteAssigned: schemas.JsIncompleteAssigned }
      | { JsIncompleteUnassigned: schemas.JsIncompleteUnassigned }
    >();
  });

  it('each schema of ledger-rx/schemas parses to the type of the same name that ledger-rx exports', () => {
    expectTypeOf<z.output<typeof schemas.CreatedEvent>>().toEqualTypeOf<CreatedEvent>();
    expectTypeOf<z.output<typeof schemas.JsTransaction>>().toEqualTypeOf<JsTransaction>();
    expectTypeOf<z.output<typeof schemas.JsGetUpdatesResponse>>().toEqualTypeOf<JsGetUpdatesResponse>();
    expectTypeOf<z.output<typeof schemas.Update>>().toEqualTypeOf<Update>();
    expectTypeOf<z.output<typeof schemas.Event>>().toEqualTypeOf<Event>();
    expectTypeOf<z.output<typeof schemas.GetUpdatesRequest>>().toEqualTypeOf<GetUpdatesRequest>();
    expectTypeOf<z.output<typeof schemas.UpdateFormat>>().toEqualTypeOf<UpdateFormat>();
    expectTypeOf<z.output<typeof schemas.JsCommands>>().toEqualTypeOf<JsCommands>();
    expectTypeOf<z.output<typeof schemas.CompletionResponse>>().toEqualTypeOf<CompletionResponse>();
    expectTypeOf<z.output<typeof schemas.JsGetActiveContractsResponse>>().toEqualTypeOf<JsGetActiveContractsResponse>();
    expectTypeOf(schemas.CreatedEvent).toExtend<z.ZodType<CreatedEvent>>();
    expectTypeOf(schemas.JsTransaction).toEqualTypeOf<schemas.WireSchema<JsTransaction>>();
  });

  it('a schema that differs from its named type does not compile where it is declared', () => {
    interface Small {
      name: string;
      count?: number | null | undefined;
    }
    const agrees: WireSchema<Small> = wireSchema(() => z.looseObject({ name: z.string(), count: z.number().nullish() }));
    expectTypeOf<z.output<typeof agrees>>().toEqualTypeOf<Small>();
    // The named type comes from the declared type of the constant; without one there is nothing to agree with.
    // @ts-expect-error no declared type: the schema is checked against unknown, and refused
    const undeclared = wireSchema(() => z.looseObject({ name: z.string() }));
    expect(undeclared).toBeDefined();
    // The run-time schema is the loose object: unknown fields kept, as before.
    expect(agrees.parse({ name: 'a', extra: 1 })).toEqual({ name: 'a', extra: 1 });
    const drifted: WireSchema<Small>[] = [
      // @ts-expect-error a field of the type is missing from the schema
      wireSchema(() => z.looseObject({ name: z.string() })),
      // @ts-expect-error a misspelled field
      wireSchema(() => z.looseObject({ name: z.string(), cuont: z.number().nullish() })),
      // @ts-expect-error an optional field made required
      wireSchema(() => z.looseObject({ name: z.string(), count: z.number() })),
      // @ts-expect-error a field of another type
      wireSchema(() => z.looseObject({ name: z.number(), count: z.number().nullish() })),
      // @ts-expect-error a field the type does not declare
      wireSchema(() => z.looseObject({ name: z.string(), count: z.number().nullish(), extra: z.string() })),
    ];
    expect(drifted).toHaveLength(5);
  });
});
