import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { StreamScope } from './stream-scope.js';

/**
 * One change asked of a stream's scope (`ledger-rx store scope --add-party P`, …): add or remove a party, a template
 * or an interface (ids as in the filter: a party id, `#package-name:Module:Entity`).
 */
export interface ScopeEdit {
  readonly op: 'add' | 'remove';
  readonly kind: 'party' | 'template' | 'interface';
  readonly id: string;
}

const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();

/**
 * `scope` with `edits` applied in order (pure), its lists sorted as the store records them. An edit that would change
 * nothing or mean something else than it says is refused with an {@link InvalidArgumentError} (`field` `edits`),
 * naming the scope: adding a party to a scope of every party, or a template or interface to one of every template
 * (that would narrow it); removing what the scope does not hold; removing the last party (no party means every
 * party) or the last template or interface (none means every template); adding what it holds already.
 */
export function editScope(scope: StreamScope, edits: readonly ScopeEdit[]): StreamScope {
  let parties = scope.parties === null ? null : sorted(scope.parties);
  let templates = sorted(scope.templates);
  let interfaces = sorted(scope.interfaces);
  const refuse = (rule: string) => {
    throw new InvalidArgumentError('edits', `${rule} (the scope: ${describeScope({ parties, templates, interfaces })})`);
  };
  for (const { op, kind, id } of edits) {
    if (id === '') refuse(`an empty ${kind} id`);
    if (kind === 'party') {
      if (parties === null) refuse(`the stream stores every party: ${op === 'add' ? `adding ${id} changes nothing` : `restart ingest with --party for each party to keep, to remove ${id}`}`);
      const list: string[] = parties ?? [];
      if (op === 'add') {
        if (list.includes(id)) refuse(`party ${id} is in the scope already`);
        parties = sorted([...list, id]);
      } else {
        if (!list.includes(id)) refuse(`party ${id} is not in the scope`);
        if (list.length === 1) refuse(`${id} is the stream's only party, and no party means every party`);
        parties = list.filter((p) => p !== id);
      }
      continue;
    }
    const list = kind === 'template' ? templates : interfaces;
    if (op === 'add') {
      if (templates.length === 0 && interfaces.length === 0) refuse(`the stream stores every template: adding ${kind} ${id} would narrow it to that one`);
      if (list.includes(id)) refuse(`${kind} ${id} is in the scope already`);
    } else {
      if (!list.includes(id)) refuse(`${kind} ${id} is not in the scope`);
      if (templates.length + interfaces.length === 1) refuse(`${id} is the stream's only ${kind}, and no template or interface means every template`);
    }
    const next = op === 'add' ? sorted([...list, id]) : list.filter((x) => x !== id);
    if (kind === 'template') templates = next;
    else interfaces = next;
  }
  return { parties, templates, interfaces };
}

/** A scope in a few words, for messages: `parties A, B; templates #p:M:T; interfaces none`. */
function describeScope(scope: StreamScope): string {
  const list = (xs: readonly string[], none: string) => (xs.length === 0 ? none : xs.join(', '));
  return `parties ${scope.parties === null ? 'every party' : list(scope.parties, 'none')}; templates ${list(scope.templates, scope.interfaces.length === 0 ? 'every template' : 'none')}; interfaces ${list(scope.interfaces, 'none')}`;
}
