import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { PartyLists } from '../../src/sandbox/ledger/party-lists.js';
import type { ContractRecord, TransactionRecord } from '../../src/sandbox/ledger/update-record.js';

describe('PartyLists', () => {
  it('gives one shared array per distinct list (same parties, same order)', () => {
    const lists = new PartyLists();
    const first = ['Alice::1', 'Bob::1'];
    expect(lists.intern(first)).toBe(first);
    expect(lists.intern(['Alice::1', 'Bob::1'])).toBe(first);
    expect(lists.intern(['Bob::1', 'Alice::1'])).not.toBe(first);
    expect(lists.intern(['Alice::1'])).toEqual(['Alice::1']);
  });

  it('submitted contracts with the same parties share their party arrays (the renderers cache per array)', async () => {
    const sandbox = await startSandbox();
    try {
      const [alice, bob] = [sandbox.partyId('Alice'), sandbox.partyId('Bob')];
      const iou = (amount: string) => ({
        CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: bob, currency: 'USD', amount, observers: [] } },
      });
      await sandbox.submit({ commands: [iou('1.0')], commandId: 'a', actAs: [alice] });
      await sandbox.submit({ commands: [iou('2.0')], commandId: 'b', actAs: [alice] });
      const ledger = sandbox.state.ledger;
      const created = [ledger.at(ledger.size - 2), ledger.at(ledger.size - 1)].map((u) => (u as TransactionRecord).nodes[0] as ContractRecord);
      const [one, two] = created as [ContractRecord, ContractRecord];
      expect(one.stakeholders).toEqual([alice, bob]);
      expect(two.signatories).toBe(one.signatories);
      expect(two.observers).toBe(one.observers);
      expect(two.stakeholders).toBe(one.stakeholders);
      expect(two.witnesses).toBe(one.witnesses);
    } finally {
      await sandbox.close();
    }
  });
});
