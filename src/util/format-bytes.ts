/** A byte count for people: 1.5 MB, 820 kB (SI units, like most download tools); at most 5 characters before the unit. */
export function formatBytes(n: number): string {
  if (n < 1000) return `${Math.round(n)} B`;
  const units = ['kB', 'MB', 'GB', 'TB', 'PB'];
  let value = n / 1000;
  let u = 0;
  while (value >= 999.95 && u < units.length - 1) {
    value /= 1000;
    u++;
  }
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${units[u]}`;
}
