/**
 * One benchmark line: the figure, its same-run reference, and their ratio. A row with a goal (its
 * name ends in "(goal ...)") prints as `name: ratio (goal ...)`, the figures indented under it,
 * so `npm run bench | grep goal` is the table of goals.
 */
export function report(
  what: string,
  value: number,
  unit: string,
  reference: number,
  refUnit = unit,
  refName = 'reference',
): void {
  const ratio = (reference === 0 ? Infinity : value / reference).toFixed(2);
  const goal = /^(.*) \((goal [^)]*)\)$/.exec(what);
  if (goal) {
    console.log(`${goal[1]}: ${ratio} (${goal[2]})`);
    console.log(`  ${fmt(value)} ${unit} vs ${refName} ${fmt(reference)} ${refUnit}`);
    return;
  }
  console.log(
    `${what}: ${fmt(value)} ${unit} (${refName}: ${fmt(reference)} ${refUnit}, ratio ${ratio})`,
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
