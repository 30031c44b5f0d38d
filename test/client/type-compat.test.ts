import { describe, expectTypeOf, it } from 'vitest';
import type { LedgerClient } from '../../src/client/index.js';
import type { UpdatesSource } from '../../src/operators/index.js';

describe('LedgerClient types', () => {
  it('can be used as the UpdatesSource of the operators', () => {
    expectTypeOf<LedgerClient>().toExtend<UpdatesSource>();
  });
});
