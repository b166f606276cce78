/**
 * 30000 -> "30,000", as `toLocaleString('en-US')` writes an integer, without it: the first
 * toLocaleString in a process loads ICU's locale data, ~6 MiB of memory that an idle host then
 * keeps (issue #18, idle RSS), for a comma.
 */
export function groupDigits(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const sign = n < 0 ? '-' : '';
  const [int, frac] = String(Math.abs(n)).split('.');
  const grouped = int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return sign + grouped + (frac ? `.${frac}` : '');
}
