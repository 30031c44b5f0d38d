import { execFileSync, spawn } from 'node:child_process';
import stringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { visibleAcsDeltaOffsets } from './support/ledger-truth.js';
import { cliPath, runCli } from './support/run-cli.js';

// `tail` under real pseudo-terminals: `script` (util-linux) gives the process a terminal and records its
// bytes; tmux draws them on a screen, which is what a person sees.

const esc = String.fromCharCode(27);
const sgr = new RegExp(`${esc}\\[[0-9;]*m`, 'g');
const row = /^ *(\d+) {2}\d\d:\d\d:\d\d\.\d{3} {2}tx {2}\S/;
const dateLine = /^── \d{4}-\d\d-\d\d \(UTC\) ──$/;
const logLine = /^\d\d:\d\d:\d\d (debug|info|warn|error) /;
const statusLine = /^(websocket|page|list) · [\d,]+ updates · [\d.,]+\/s · offset [\d,-]+ · lag [\d,?]+$/;

function has(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The environment of a person's terminal: TERM set, none of the colour switches unless given, and no `CI`
 * (under which Node's `hasColors` answers no).
 */
function terminalEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, TERM: 'xterm-256color', ...extra };
  for (const key of ['NO_COLOR', 'FORCE_COLOR', 'NODE_DISABLE_COLORS', 'COLUMNS', 'CI']) if (!(key in extra)) delete env[key];
  return env;
}

const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

/** Runs the CLI on a pseudo-terminal of `cols` columns (stdout and stderr both on it); resolves with its bytes. */
function inTerminal(args: readonly string[], env: Record<string, string> = {}, cols = 100): Promise<{ code: number | null; bytes: string }> {
  const command = `stty cols ${cols} rows 40; exec ${quote(process.execPath)} ${quote(cliPath)} ${args.map(quote).join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qefc', command, '/dev/null'], { env: terminalEnv(env), stdio: ['ignore', 'pipe', 'inherit'] });
    let bytes = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (bytes += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, bytes });
    });
  });
}

/**
 * The lines a terminal shows for `bytes`, for the few controls the CLI uses: `\r` and `ESC[1G` move to the
 * line's start, `ESC[2K` erases the line, `\n` ends it; what is drawn between `ESC 7` and `ESC 8` (the status
 * line on the bottom row, the cursor saved and restored around it) is not part of the scrolling text and is
 * returned as `status` (the last one drawn); colours are dropped.
 */
function screen(bytes: string): { lines: string[]; status: string | undefined } {
  const lines: string[] = [];
  let line = '';
  let status: string | undefined;
  let elsewhere: string | undefined;
  const tokens = bytes.replace(sgr, '').split(new RegExp(`(\r\n|\n|\r|${esc}\\[[0-9;?]*[A-Za-z]|${esc}[78])`));
  for (const t of tokens) {
    if (t === `${esc}7`) elsewhere = '';
    else if (t === `${esc}8`) {
      if (elsewhere !== undefined && elsewhere !== '') status = elsewhere;
      elsewhere = undefined;
    } else if (elsewhere !== undefined) {
      if (t === `${esc}[2K`) elsewhere = '';
      else if (!t.startsWith(esc)) elsewhere += t;
    } else if (t === '\n' || t === '\r\n') {
      lines.push(line);
      line = '';
    } else if (t === '\r' || t === `${esc}[1G`) {
      // back to the start: what follows overwrites, so keep nothing that an erase would not keep either
    } else if (t === `${esc}[2K`) line = '';
    else if (!t.startsWith(esc)) line += t;
  }
  if (line !== '') lines.push(line);
  return { lines, status };
}

/** The scrolling lines of {@link screen}. */
function screenLines(bytes: string): string[] {
  return screen(bytes).lines;
}

describe.skipIf(!has('script'))('tail on a pseudo-terminal (script)', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 40 });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('shows one coloured line per update, in ledger order, fitted to the terminal, with logs for people', async () => {
    const { code, bytes } = await inTerminal(['tail', '--url', sandbox.url, '--to', 'end']);
    expect(code).toBe(0);
    expect(bytes).not.toContain('{"update"');
    expect(bytes).toContain(`${esc}[32mcreated`); // picocolors' green
    const lines = screenLines(bytes);
    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(100);
    const offsets = lines.flatMap((l) => (row.exec(l) ? [Number((row.exec(l) as RegExpExecArray)[1])] : []));
    expect(offsets).toEqual(visibleAcsDeltaOffsets(sandbox));
    expect(lines.filter((l) => !row.test(l) && !dateLine.test(l) && !logLine.test(l) && l !== '')).toEqual([]);
    expect(lines.some((l) => logLine.test(l) && l.includes('reading up to the ledger end as of now'))).toBe(true);
  });

  it('NO_COLOR: the same view without colours; --format ndjson on a terminal: the bytes of a pipe', async () => {
    const [plain, ndjson, piped] = await Promise.all([
      inTerminal(['tail', '--url', sandbox.url, '--to', 'end'], { NO_COLOR: '1' }, 120),
      inTerminal(['tail', '--url', sandbox.url, '--to', 'end', '--format', 'ndjson', '--log-level', 'warn']),
      runCli(['tail', '--url', sandbox.url, '--to', 'end', '--log-level', 'warn']),
    ]);
    expect(plain.code).toBe(0);
    expect(plain.bytes.match(sgr)).toBeNull();
    expect(screenLines(plain.bytes).filter((l) => row.test(l))).toHaveLength(visibleAcsDeltaOffsets(sandbox).length);
    expect(ndjson.code).toBe(0);
    expect(piped.stdout).toContain('{"update"');
    expect(ndjson.bytes.replace(/\r\n/g, '\n')).toBe(piped.stdout); // the terminal turns \n into \r\n
  });
});

describe.skipIf(!has('script'))('acs and completions on a pseudo-terminal (script)', () => {
  /** Runs the CLI on a terminal of 100 columns until `enough(lines)`, then ends it; resolves with the screen lines. */
  function untilScreen(args: readonly string[], enough: (lines: string[]) => boolean): Promise<string[]> {
    const command = `stty cols 100 rows 40; exec ${quote(process.execPath)} ${quote(cliPath)} ${args.map(quote).join(' ')}`;
    return new Promise((resolve, reject) => {
      const child = spawn('script', ['-qefc', command, '/dev/null'], { env: terminalEnv({}), stdio: ['ignore', 'pipe', 'inherit'] });
      let bytes = '';
      onTestFinished(() => void child.kill('SIGKILL')); // a screen that never has enough ends with the test's timeout
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        bytes += d;
        if (enough(screenLines(bytes))) child.kill('SIGTERM');
      });
      child.on('error', reject);
      child.on('close', () => resolve(screenLines(bytes)));
    });
  }

  it('acs: one compact row per contract as in tail (short id, template, parties, argument)', async () => {
    const sandbox = await startSandbox({ seed: 40 });
    try {
      const { code, bytes } = await inTerminal(['acs', '--any-party', '--url', sandbox.url]);
      expect(code).toBe(0);
      const lines = screenLines(bytes);
      const rows = lines.filter((l) => /^ *\d+ {2}active/.test(l));
      expect(rows.length).toBeGreaterThan(0);
      for (const l of rows) expect(l).toMatch(/^ *\d+ {2}active {2}#[0-9a-f]{6}…[0-9a-f]{4} {2}(ledger-rx-demo:)?(Iou:Iou|Asset:Asset) (Alice|Bob|Charlie)\b.* \{/);
      for (const l of lines) expect(stringWidth(l), l).toBeLessThanOrEqual(100);
      expect(lines.at(-1)).toMatch(/^\d+ entr(y|ies) at offset \d+$/);
    } finally {
      await sandbox.close();
    }
  });

  it('completions --sandbox: the outcomes of the workload, ok and FAILED, as rows; no checkpoint rows', async () => {
    const completion = /^ *\d+ {2}\d\d:\d\d:\d\d\.\d{3} {2}(ok|FAILED) +workload-\d+ /;
    const lines = await untilScreen(['completions', '--sandbox', '--rate', '200', '--log-level', 'warn'], (l) => l.filter((x) => /FAILED/.test(x)).length >= 1 && l.filter((x) => / ok /.test(x)).length >= 3);
    const rows = lines.filter((l) => completion.test(l));
    expect(rows.filter((l) => / ok /.test(l)).length).toBeGreaterThanOrEqual(3);
    expect(rows.some((l) => /FAILED +workload-\d+ +(DUPLICATE_COMMAND|LOCAL_VERDICT_INACTIVE_CONTRACTS) /.test(l))).toBe(true);
    expect(lines.filter((l) => l !== '' && !completion.test(l) && !logLine.test(l))).toEqual([]);
    for (const l of lines) expect(stringWidth(l), l).toBeLessThanOrEqual(100);
  });
});

const tmuxMissing = !has('tmux');
if (tmuxMissing && process.env['CI']) throw new Error('tmux is required under CI (.ci/run installs it)');

describe.skipIf(tmuxMissing)('tail on a screen (tmux)', () => {
  const socket = `ledger-rx-test-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8', env: terminalEnv({}) });
  const screen = () => tmux('capture-pane', '-p', '-t', 'tail').split('\n').map((l) => l.trimEnd()).filter((l) => l !== '');
  async function waitForScreen(check: (lines: string[]) => boolean, what: string): Promise<string[]> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const lines = screen();
      if (check(lines)) return lines;
      if (Date.now() > deadline) throw new Error(`the screen never showed ${what}:\n${lines.join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 5, generate: 20 });
  });
  afterAll(async () => {
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
    await sandbox.close();
  });

  it('keeps the status line below the updates, never inside them, and erases it at the stop', async () => {
    const command = `${quote(process.execPath)} ${quote(cliPath)} tail --url ${quote(sandbox.url)}; echo EXIT=$?; sleep 60`;
    tmux('new-session', '-d', '-s', 'tail', '-x', '100', '-y', '24', command);
    const live = await waitForScreen((l) => l.filter((x) => row.test(x)).length >= 12 && statusLine.test(l.at(-1) ?? ''), 'updates and the status line');
    // always on screen, on the bottom row of its own: in every capture while rows keep coming
    let last = Math.max(...live.flatMap((l) => (row.exec(l) ? [Number((row.exec(l) as RegExpExecArray)[1])] : [])));
    for (let i = 0; i < 5; i++) {
      const later = await waitForScreen((l) => l.some((x) => Number(row.exec(x)?.[1] ?? 0) > last), 'a newer update');
      last = Math.max(...later.flatMap((l) => (row.exec(l) ? [Number((row.exec(l) as RegExpExecArray)[1])] : [])));
      const rows24 = tmux('capture-pane', '-p', '-t', 'tail').split('\n');
      expect(rows24[23]?.trimEnd() ?? '', rows24.join('\n')).toMatch(statusLine);
      expect(rows24.slice(0, 23).filter((l) => statusLine.test(l.trimEnd()))).toEqual([]);
    }
    const above = live.slice(0, -1);
    expect(above.filter((l) => !row.test(l) && !dateLine.test(l) && !logLine.test(l))).toEqual([]); // nothing half-drawn, no status text in the data
    const offsets = above.flatMap((l) => (row.exec(l) ? [Number((row.exec(l) as RegExpExecArray)[1])] : []));
    expect([...offsets].sort((a, b) => a - b)).toEqual(offsets);
    expect(new Set(offsets).size).toBe(offsets.length);
    for (const l of live) expect(stringWidth(l)).toBeLessThanOrEqual(100);

    tmux('send-keys', '-t', 'tail', 'C-c');
    const stopped = await waitForScreen((l) => l.includes('EXIT=0'), 'the exit');
    expect(stopped.filter((l) => statusLine.test(l))).toEqual([]);
    // the log line may have scrolled off a 24-row screen under load: look in the scrollback too
    const history = tmux('capture-pane', '-p', '-S', '-', '-t', 'tail').split('\n');
    // (after the `^C` the terminal echoed at the cursor)
    expect(history.some((l) => logLine.test(l.replace(/^\^C/, '')) && l.includes('stopping: flushing the output and the checkpoint')), history.join('\n')).toBe(true);
  });
});
