import { describe, expect, it } from 'vitest';
import { requirePeers } from '../../src/errors/require-peers.js';
import { isLedgerRxError, LedgerRxError, PeerDependencyMissingError } from '../../src/index.js';

/** The check each entry point with optional peers runs when it is imported (docs/packaging.md). */
describe('requirePeers', () => {
  const notFound = (specifier: string) => Object.assign(new Error(`Cannot find package '${specifier}' imported from /app/x.js`), { code: 'ERR_MODULE_NOT_FOUND' });
  const resolveOnly = (present: string[]) => (specifier: string) => {
    if (!present.includes(specifier)) throw notFound(specifier);
    return `file:///app/node_modules/${specifier}/index.js`;
  };

  it('passes when every package resolves, loading nothing', () => {
    const asked: string[] = [];
    expect(() => requirePeers('ledger-rx/jetstream', ['a', 'b'], (s) => (asked.push(s), resolveOnly(['a', 'b'])(s)))).not.toThrow();
    expect(asked).toEqual(['a', 'b']);
  });

  it('throws one PeerDependencyMissingError naming every missing package and the entry point, with what to run', () => {
    let error: unknown;
    try {
      requirePeers('ledger-rx/jetstream', ['@nats-io/jetstream', '@nats-io/nats-core', '@nats-io/transport-node'], resolveOnly(['@nats-io/nats-core']));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PeerDependencyMissingError);
    expect(error).toBeInstanceOf(LedgerRxError);
    expect(isLedgerRxError(error)).toBe(true);
    const missing = error as PeerDependencyMissingError;
    expect(missing.code).toBe('PEER_DEPENDENCY_MISSING');
    expect(missing.retryable).toBe(false);
    expect(missing.entryPoint).toBe('ledger-rx/jetstream');
    expect(missing.packages).toEqual(['@nats-io/jetstream', '@nats-io/transport-node']);
    expect(missing.message).toContain('npm install @nats-io/jetstream @nats-io/transport-node');
    expect((missing.cause as Error).message).toContain("'@nats-io/jetstream'");
  });

  it('lets any other failure of resolution through as it is', () => {
    const broken = Object.assign(new Error('Invalid package config'), { code: 'ERR_INVALID_PACKAGE_CONFIG' });
    expect(() =>
      requirePeers('ledger-rx/postgres', ['pg'], () => {
        throw broken;
      }),
    ).toThrow(broken);
  });
});
