import type { z } from 'zod';

/** The builder behind each schema made by {@link lazySchema}, by the schema's stand-in. */
const builders = new WeakMap<object, () => object>();

/**
 * A zod schema built on first use: returns a stand-in of the type `build` returns that builds the schema
 * (once: the result is kept) the first time anything reads from it, and from then on forwards every read,
 * write and reflection to it. So `import 'ledger-rx'` defines the wire model's schemas without constructing
 * them, and a schema costs its construction only in a program that uses it; parsing, its results and its
 * errors are those of the schema `build` returns.
 *
 * The stand-in is a different object from the schema it builds: code of this library that composes schemas
 * or keeps one on a hot path takes the built schema with {@link built}, so that zod's own structures (an
 * object's shape, a variant's cases, an optional's inner type) hold built schemas, never stand-ins.
 * `instanceof` and the prototype answer as the built schema's do.
 *
 * @throws whatever `build` throws, at the first read (and again at the next, as nothing was kept).
 */
export function lazySchema<T extends z.ZodType>(build: () => T): T {
  let schema: T | undefined;
  const get = (): T => (schema ??= build());
  const handler: ProxyHandler<object> = {
    get: (_target, key) => {
      const s = get();
      return Reflect.get(s, key, s);
    },
    set: (_target, key, value) => {
      const s = get();
      return Reflect.set(s, key, value, s);
    },
    has: (_target, key) => Reflect.has(get(), key),
    ownKeys: () => Reflect.ownKeys(get()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(get(), key);
      // A proxy may not report a property as non-configurable unless its own target has it so.
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
    defineProperty: (_target, key, descriptor) => Reflect.defineProperty(get(), key, descriptor),
    deleteProperty: (_target, key) => Reflect.deleteProperty(get(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(get()),
  };
  const standIn = new Proxy({}, handler);
  builders.set(standIn, get);
  return standIn as T;
}

/**
 * The built schema behind a stand-in made by {@link lazySchema} (building it on the first call); any other
 * schema is returned as it is. Cheap after the first call: one lookup.
 */
export function built<T extends z.ZodType>(schema: T): T {
  const get = builders.get(schema);
  return get === undefined ? schema : (get() as T);
}
