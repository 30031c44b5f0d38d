import { asyncScheduler } from 'rxjs';
import type { TrackCommandsConfig } from '../track-commands.js';
import type { TrackCommandSettings } from './track-command.js';

/** The settings of `trackCommand` from the options of `trackCommands`/`submitAndTrack`, with their defaults. */
export function resolveTrackSettings(config: TrackCommandsConfig): TrackCommandSettings {
  return {
    timeoutMs: config.timeoutMs ?? 30_000,
    scheduler: config.scheduler ?? asyncScheduler,
    parties: config.parties,
    newSubmissionId: config.newSubmissionId ?? (() => globalThis.crypto.randomUUID()),
  };
}
