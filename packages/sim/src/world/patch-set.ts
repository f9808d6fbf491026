import { syncBuiltinESMExports } from "node:module";

/**
 * Property replacements that can all be undone in reverse order. Builtin modules' ESM named exports are re-synced
 * after each change, so `import { randomUUID } from "node:crypto"` sees the replacement through its live binding.
 */
export class PatchSet {
  private readonly undo: (() => void)[] = [];

  /** Replaces `target[key]` with `value` (as an own property, so instances over a prototype method work too). */
  set<T extends object>(target: T, key: PropertyKey, value: unknown): void {
    const had = Object.hasOwn(target, key);
    const before = Object.getOwnPropertyDescriptor(target, key);
    Object.defineProperty(target, key, {
      value,
      writable: true,
      configurable: true,
      enumerable: before?.enumerable ?? true,
    });
    this.undo.push(() => {
      if (had && before) Object.defineProperty(target, key, before);
      else delete (target as Record<PropertyKey, unknown>)[key];
    });
  }

  /** Registers an arbitrary undo step (for patches made by another library). */
  onRestore(fn: () => void): void {
    this.undo.push(fn);
  }

  /** Makes builtin modules' named ESM exports reflect the patched CommonJS exports. */
  sync(): void {
    syncBuiltinESMExports();
  }

  /** Undoes every patch, newest first. */
  restore(): void {
    for (let fn = this.undo.pop(); fn !== undefined; fn = this.undo.pop()) fn();
    syncBuiltinESMExports();
  }
}
