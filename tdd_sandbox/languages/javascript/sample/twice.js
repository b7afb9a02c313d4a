export function twice(n) {
  return 2 * n;
}
