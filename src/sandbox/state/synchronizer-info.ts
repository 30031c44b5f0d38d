/** A synchronizer the participant has registered. */
export interface SynchronizerInfo {
  readonly id: string;
  /** Ready and connected; vetting autodetection and submissions only use connected synchronizers. */
  connected: boolean;
}
