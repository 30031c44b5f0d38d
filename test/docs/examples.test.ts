import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startNatsServer, type NatsServer } from '../../scripts/nats-server.js';
import { repoRoot, sharedDir } from '../support/shared-dir.js';

/**
 * The examples of README.md and docs/ can't rot: every TypeScript/JavaScript block of the Markdown is
 * preceded by `<!-- example: examples/NAME.ts -->` and equals that file; examples/ is a project of its own
 * (ESM, `ledger-rx` as `file:..`, what a user who copies it gets), type-checked strictly against the built
 * declarations, and every example runs as a program against the embedded sandbox (some end by themselves,
 * the endless tail gets Ctrl-C once it printed). Generated code of the typed examples comes from
 * `ledger-rx codegen` of a DAR of ../shared/dars, into examples/daml (not committed).
 */
const examplesDir = join(repoRoot, 'examples');
const runDir = join(examplesDir, '.run');

interface Block {
  readonly markdown: string;
  readonly line: number;
  readonly code: string;
  /** `examples/NAME.ts`, from the marker line just above the fence. */
  readonly example: string | undefined;
}

/** The ```ts/```js blocks of a Markdown text, with the line each starts on and the example it names. */
function codeBlocks(markdown: string, name: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript|js|javascript|mjs)\s*$/.test(lines[i] as string)) continue;
    const marker = /^<!-- example: (examples\/[\w./-]+) -->$/.exec(lines[i - 1] ?? '');
    const start = i + 1;
    let end = start;
    while (end < lines.length && !(lines[end] as string).startsWith('```')) end++;
    blocks.push({ markdown: name, line: start + 1, code: `${lines.slice(start, end).join('\n')}\n`, example: marker?.[1] });
    i = end;
  }
  return blocks;
}

const markdownFiles = ['README.md', ...readdirSync(join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const blocks = markdownFiles.flatMap((f) => codeBlocks(readFileSync(join(repoRoot, f), 'utf8'), f));
const exampleFiles = readdirSync(examplesDir).filter((f) => f.endsWith('.ts'));

/** Type-checks the examples project (examples/tsconfig.json, plus `extra` files); returns the diagnostics as text. */
function typeCheck(extra: Record<string, string> = {}): string[] {
  const configPath = join(examplesDir, 'tsconfig.json');
  const configFile = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, examplesDir);
  const host = ts.createCompilerHost(parsed.options);
  const extraFiles = new Map(Object.entries(extra).map(([name, code]) => [join(examplesDir, name), code]));
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (p) => extraFiles.has(p) || fileExists.call(host, p);
  host.readFile = (p) => extraFiles.get(p) ?? readFile.call(host, p);
  host.getSourceFile = (p, version, onError, shouldCreate) => {
    const code = extraFiles.get(p);
    return code === undefined ? getSourceFile.call(host, p, version, onError, shouldCreate) : ts.createSourceFile(p, code, version, true);
  };
  const program = ts.createProgram({ rootNames: [...parsed.fileNames, ...extraFiles.keys()], options: parsed.options, host });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${relative(repoRoot, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : '';
    return `${where}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

/** Every .ts file under `dir` (no node_modules, no .run). */
function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name === '.run') return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? tsFiles(path) : e.name.endsWith('.ts') ? [path] : [];
  });
}

const dar = sharedDir === undefined ? undefined : join(sharedDir, 'dars', 'richtypes.dar');

beforeAll(() => {
  // what `npm install` in examples/ makes of `"ledger-rx": "file:.."`: a link to the repository (its dist/)
  const link = join(examplesDir, 'node_modules', 'ledger-rx');
  if (!existsSync(link)) {
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join('..', '..'), link, 'dir');
  }
  if (dar === undefined) throw new Error('the typed examples need ../shared/dars/richtypes.dar');
  // the README's first step of the typed example: ledger-rx codegen (into examples/daml, not committed)
  execFileSync(process.execPath, [join(repoRoot, 'dist', 'cli', 'main.js'), 'codegen', dar, '--out', join(examplesDir, 'daml')], { stdio: 'ignore' });
  // the programs as Node runs them: the TypeScript stripped, beside examples/package.json (ESM)
  rmSync(runDir, { recursive: true, force: true });
  for (const file of tsFiles(examplesDir)) {
    const out = join(runDir, relative(examplesDir, file).replace(/\.ts$/, '.js'));
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText);
  }
}, 60_000);

afterAll(() => rmSync(runDir, { recursive: true, force: true }));

describe('the code blocks of README.md and docs/', () => {
  it('are there', () => {
    expect(blocks.filter((b) => b.markdown === 'README.md').length).toBeGreaterThan(1);
  });

  for (const block of blocks) {
    it(`${block.markdown}:${block.line} is an example file, unchanged`, () => {
      expect(block.example, 'put <!-- example: examples/NAME.ts --> on the line before the fence').toBeDefined();
      const file = join(repoRoot, block.example as string);
      expect(existsSync(file), `${block.example} is missing`).toBe(true);
      expect(block.code, `the block differs from ${block.example}: copy the file into the block`).toBe(readFileSync(file, 'utf8'));
    });
  }

  it('show every example file', () => {
    const shown = new Set(blocks.map((b) => b.example));
    expect(exampleFiles.filter((f) => !shown.has(`examples/${f}`))).toEqual([]);
  });
});

describe('the examples project', () => {
  it('type-checks strictly against the built declarations (and the checker finds a misspelled export and an undefined name)', { timeout: 120_000 }, () => {
    // one program: the examples, and a bad one that shows the check is not vacuous
    const errors = typeCheck({ 'bad-example.ts': "import { tailUpdate } from 'ledger-rx';\nconsole.log(tailUpdate, readFreshToken());\n" });
    expect(errors.filter((e) => !e.startsWith('examples/bad-example.ts:'))).toEqual([]);
    expect(errors.join('\n')).toMatch(/'tailUpdate'/);
    expect(errors.join('\n')).toMatch(/'readFreshToken'/);
  });
});

/** How an example is run, and what it must print. */
interface Run {
  /** Arguments after the program. */
  readonly args?: string[];
  readonly env?: Record<string, string>;
  /** Sends SIGINT once stdout matches this (the example runs until Ctrl-C); otherwise it must end by itself. */
  readonly interruptAfter?: RegExp;
  /** What stdout must match in the end (each of them). */
  readonly prints: RegExp | RegExp[];
  /** Further checks of stdout and of what it left in its working directory. */
  readonly check?: (stdout: string, cwd: string) => void;
  /** Files the example must leave in its working directory. */
  readonly leaves?: string[];
  /** Why it cannot run here (a missing server), or undefined. */
  readonly skip?: string | undefined;
  /** Prepares what the example reads (before it runs); returns the extra environment. */
  readonly before?: () => Promise<Record<string, string>>;
  /**
   * A known gap of the sandbox, not of the example: today it exits 1 with this on stderr. When the gap is
   * closed the test fails, to make whoever closed it turn this into a check of `prints`.
   */
  readonly failsToday?: { readonly stderr: RegExp; readonly stdout: RegExp; readonly why: string };
}

/** Runs `.run/NAME.js` in a fresh working directory; resolves with its output and exit status. */
function runExample(name: string, run: Run): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; cwd: string }> {
  const cwd = mkdtempSync(join(tmpdir(), `ledger-rx-example-${name.replace(/\W/g, '-')}-`));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(runDir, name.replace(/\.ts$/, '.js')), ...(run.args ?? [])], { cwd, env: { ...process.env, ...run.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let interrupted = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (run.interruptAfter !== undefined && !interrupted && run.interruptAfter.test(stdout)) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, cwd }));
  });
}

const pgUrl = inject('pgUrl');
/** A database of its own for the PostgreSQL example (dropped at the end). */
const database = `ledger_rx_example_${process.pid}`;
const databaseUrl = (url: string, name: string): string => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.href;
};
beforeAll(async () => {
  if (pgUrl === undefined) return;
  const pg = await import('pg');
  const admin = new pg.default.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
});
afterAll(async () => {
  if (pgUrl === undefined) return;
  const pg = await import('pg');
  const admin = new pg.default.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.end();
});

let nats: NatsServer | undefined;
afterAll(async () => nats?.stop());
/** A nats-server with JetStream, and the stream LEDGER published by the CLI (what the example's comment says). */
async function publishedLedger(): Promise<Record<string, string>> {
  nats = await startNatsServer();
  if (nats === undefined) throw new Error('nats-server is not installed');
  execFileSync(process.execPath, [join(repoRoot, 'dist', 'cli', 'main.js'), 'publish', '--sandbox', '--to', 'end', '--nats', nats.url, '--stream', 'LEDGER', '--subject-prefix', 'ledger.p1', '--log-level', 'warn'], { stdio: 'ignore' });
  return { NATS_URL: nats.url };
}

/** Every example file and how it runs (an example missing here fails the first test below). */
const runs: Record<string, Run> = {
  'quick-start.ts': {
    interruptAfter: /(^\d+ \{.*\n){3}/m,
    prints: /^\d+ \{"update":\{"Transaction"/m,
    check: (stdout, cwd) => {
      // after Ctrl-C the position of the last update printed is saved: a restart continues after it
      const printed = [...stdout.matchAll(/^(\d+) /gm)].map((m) => Number(m[1]));
      const saved = JSON.parse(readFileSync(join(cwd, 'alice.checkpoint'), 'utf8')) as { offset: number };
      expect(saved.offset).toBe(printed.at(-1));
    },
  },
  'sandbox-auth.ts': { prints: /^[1-9]\d* updates visible to Alice up to offset \d+$/m },
  'client.ts': { prints: /^status resumed\n(.*\n)*(transaction \d+ \S+\n(.*\n)*){5}/m, leaves: ['iou.checkpoint'] },
  'live-contracts.ts': { prints: /^(\d+ open IOUs at offset \d+\n){3}$/ },
  'postgres-checkpoint.ts': {
    env: pgUrl === undefined ? {} : { DATABASE_URL: databaseUrl(pgUrl, database) },
    prints: /^(batch up to offset \d+: committed\n)+[1-9]\d* rows in ious\n$/,
    skip: pgUrl === undefined ? 'no PostgreSQL' : undefined,
  },
  'export-parquet.ts': { prints: /^files up to \d+$/m, leaves: ['ledger/updates', 'ledger/events'] },
  'metrics.ts': {
    env: { METRICS_PORT: '0' },
    // /readyz's idleSeconds to the millisecond, and the counter of what the read delivered
    prints: [/^\/readyz \{.*"ready":true.*\}$/m, /^\/readyz .*"idleSeconds":\d+(\.\d{1,3})?[,}]/m, /^ledger_rx_elements_total\{stream="ious",kind="transaction"\} [1-9]\d*$/m],
  },
  'tracing.ts': { prints: /^booked \d+\nbooked \d+\nbooked \d+\n$/ },
  'wire-types.ts': { prints: /^created #?\S+:Iou:Iou\n/m },
  'sandbox.ts': { prints: /^ledger end \d+\ncreated in \S+\npruned up to \d+\n$/ },
  'jetstream.ts': {
    before: publishedLedger,
    prints: /^(ordered \d+\n){3}(billed \d+\n){3,}$/,
    check: (stdout) => {
      // afterOffset 10: the replay starts after it, in order
      const ordered = [...stdout.matchAll(/^ordered (\d+)$/gm)].map((m) => Number(m[1]));
      expect(ordered[0]).toBeGreaterThan(10);
      expect(ordered).toEqual([...ordered].sort((a, b) => a - b));
      expect(new Set(ordered).size).toBe(3);
    },
  },
  'typed-templates.ts': {
    args: dar === undefined ? [] : [dar],
    prints: /^0 Marker contracts at offset \d+\ncreated in \S+\n\S+ Alice::\S+\n$/,
  },
  'typed-created.ts': {
    args: dar === undefined ? [] : [dar],
    prints: /^\d+ RichRecord contracts created up to offset \d+\n$/,
  },
};

// the examples are separate processes, mostly waiting on their sandbox: a few at once (vitest's maxConcurrency, 5)
describe.concurrent('every example runs against the sandbox', () => {
  it('has a run for every example file', () => {
    expect(exampleFiles.filter((f) => runs[f] === undefined)).toEqual([]);
  });

  for (const [name, run] of Object.entries(runs)) {
    it.skipIf(run.skip !== undefined && !process.env['CI'])(`${name}${run.skip === undefined ? '' : ` (${run.skip})`}`, { timeout: 60_000 }, async () => {
      const env = (await run.before?.()) ?? {};
      const result = await runExample(name, { ...run, env: { ...run.env, ...env } });
      try {
        if (run.failsToday !== undefined) {
          expect(result.code, `${name} ran: the sandbox gap "${run.failsToday.why}" is closed; remove failsToday`).toBe(1);
          expect(result.stderr).toMatch(run.failsToday.stderr);
          expect(result.stdout).toMatch(run.failsToday.stdout);
          return;
        }
        expect(result.stderr).toBe('');
        expect({ code: result.code, signal: result.signal }).toEqual({ code: 0, signal: null });
        for (const pattern of [run.prints].flat()) expect(result.stdout).toMatch(pattern);
        run.check?.(result.stdout, result.cwd);
        for (const file of run.leaves ?? []) expect(existsSync(join(result.cwd, file)), `${name} leaves ${file}`).toBe(true);
      } finally {
        rmSync(result.cwd, { recursive: true, force: true });
      }
    });
  }
});

