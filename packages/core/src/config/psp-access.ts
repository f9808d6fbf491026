import type { PspDialect } from "./psp-dialect";

/** Where a script reaches the target's PSP: its URL, its API key, and the dialect it speaks. */
export interface PspAccess {
  url: string;
  apiKey: string;
  psp: PspDialect;
}
