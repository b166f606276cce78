/** One benchmark line: the figure, its same-run reference, and their ratio. */
export function report(
  what: string,
  value: number,
  unit: string,
  reference: number,
  refUnit = unit,
  refName = 'reference',
): void {
  const ratio = reference === 0 ? Infinity : value / reference;
  console.log(
    `${what}: ${fmt(value)} ${unit} (${refName}: ${fmt(reference)} ${refUnit}, ratio ${ratio.toFixed(2)})`,
  );
}

export function fmt(n: number): string {
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2);
}

export async function timed<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}
