import type { EventFormatSpec } from './event-format-builder.js';
import { EventFormatBuilder } from './event-format-builder.js';
import type { TransactionFormat, TransactionShape } from '../schemas/filters.js';

/** The two transaction shapes, by their short names. */
export type Shape = 'acs-delta' | 'ledger-effects';

const shapes: Readonly<Record<Shape, TransactionShape>> = {
  'acs-delta': 'TRANSACTION_SHAPE_ACS_DELTA',
  'ledger-effects': 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
};

/**
 * An {@link EventFormatBuilder} for transactions, with the transaction shape: `acs-delta` (created and
 * archived events of contracts the parties are stakeholders of; the default) or `ledger-effects` (created
 * and exercised events the parties witness).
 */
export class TransactionFormatBuilder extends EventFormatBuilder {
  private readonly shapeName: Shape;

  constructor(spec?: EventFormatSpec, shape: Shape = 'acs-delta') {
    super(spec);
    this.shapeName = shape;
  }

  protected override extraState(): unknown[] {
    return [this.shapeName];
  }

  /** Sets the transaction shape. */
  shape(shape: Shape): this {
    const Ctor = this.constructor as new (spec: EventFormatSpec, shape: Shape) => this;
    return new Ctor(this.spec, shape);
  }

  /** Builds the `TransactionFormat`. */
  buildTransactionFormat(field = 'includeTransactions'): TransactionFormat {
    const shape = shapes[this.shapeName];
    return { eventFormat: this.build(`${field}.eventFormat`), transactionShape: shape };
  }
}
