import { resolve } from 'node:path';
import { repoRoot } from './shared-dir.js';

/** The built CLI entry point that tests spawn (kept fresh by `test/setup/build.ts`). */
export const cliMain = resolve(repoRoot, 'dist', 'cli', 'main.js');
