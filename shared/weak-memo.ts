// A value built when asked and kept only while something else holds it. For large structures a
// process needs now and then (zod schemas of a config read at start and on an edit): a plain memo
// would keep them for the life of the process, and an idle host's memory is what its user pays.

/**
 * `build`'s value, the same object while any caller still holds it; once none does and the GC has
 * run, the next call builds it again. Only for values that are equal however often built.
 */
export function weakMemo<T extends object>(build: () => T): () => T {
  let held: WeakRef<T> | undefined;
  return () => {
    const alive = held?.deref();
    if (alive) return alive;
    const value = build();
    held = new WeakRef(value);
    return value;
  };
}
