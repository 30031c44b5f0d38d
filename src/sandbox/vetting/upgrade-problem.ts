import type { PackageDef } from '../state/package-store.js';

/**
 * Why `newer` is not a valid upgrade of `older` (two versions of one package name), or `undefined` when it
 * is. The sandbox's model of Daml's upgrade rules, on the shapes a `PackageDef` records: every template of
 * `older` must still exist in `newer` (same module and entity) with all its choices and with a key exactly
 * when it had one, and every interface of `older` must still exist with all its choices. New templates,
 * choices and interfaces are fine. (The real check also compares field types, which the sandbox's package
 * model does not describe.)
 */
export function upgradeProblem(older: PackageDef, newer: PackageDef): string | undefined {
  for (const t of older.templates) {
    const name = `${t.module}:${t.entity}`;
    const u = newer.templates.find((x) => x.module === t.module && x.entity === t.entity);
    if (!u) return `template ${name} is missing from the new package`;
    const missing = Object.keys(t.choices).find((c) => !(c in u.choices));
    if (missing !== undefined) return `choice ${missing} of template ${name} is missing from the new package`;
    if ((t.keyFields === undefined) !== (u.keyFields === undefined)) return `template ${name} changed whether it has a key`;
  }
  for (const i of older.interfaces) {
    const name = `${i.module}:${i.entity}`;
    const u = newer.interfaces.find((x) => x.module === i.module && x.entity === i.entity);
    if (!u) return `interface ${name} is missing from the new package`;
    const missing = Object.keys(i.choices).find((c) => !(c in u.choices));
    if (missing !== undefined) return `choice ${missing} of interface ${name} is missing from the new package`;
  }
  return undefined;
}
