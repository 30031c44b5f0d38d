import type { ParticipantState } from './participant-state.js';

/** The participant's ledger: an ordered log of updates and the active contract set. */
export class Ledger {
  readonly state: ParticipantState;

  constructor(state: ParticipantState) {
    this.state = state;
  }
}
