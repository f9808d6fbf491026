/**
 * Removes elements one at a time while the list still fails: fast-check's shrinking keeps an op now and then that
 * plays no part (it stops once no single smaller value it tries fails), and a kept case should hold only the ops
 * that matter. The result still fails and no single element can be dropped from it.
 */
export async function dropUnneeded<T>(
  items: T[],
  stillFails: (items: T[]) => Promise<boolean>,
): Promise<T[]> {
  let current = items;
  let i = current.length - 1;
  while (i >= 0) {
    const without = [...current.slice(0, i), ...current.slice(i + 1)];
    if (without.length > 0 && (await stillFails(without))) current = without;
    i = Math.min(i - 1, current.length - 1);
  }
  return current;
}
