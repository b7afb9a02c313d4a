export function twice(n: number): number {
  return 2 * n;
}
