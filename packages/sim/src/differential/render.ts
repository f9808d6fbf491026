import type { AV } from "./op";

/** A document path: attribute names and list indexes, e.g. ["data", "b", "c"] or ["list", 0]. */
export type Path = (string | number)[];

/**
 * Names the expression placeholders while rendering: each distinct value gets `:vN`, each attribute name `#nN`
 * unless it is written bare (as the project's code writes `tat`, `expiration` or `pk`).
 */
export class RenderContext {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, AV> = {};
  private nameCount = 0;
  private valueCount = 0;

  /** A name placeholder for an attribute name, shared when the same name comes again. */
  name(attr: string): string {
    for (const [k, v] of Object.entries(this.names)) if (v === attr) return k;
    const key = `#n${this.nameCount++}`;
    this.names[key] = attr;
    return key;
  }

  /** A fresh value placeholder holding the value. */
  value(v: AV): string {
    const key = `:v${this.valueCount++}`;
    this.values[key] = v;
    return key;
  }

  /** A path, its first name bare when `bare` says so and through placeholders otherwise. */
  path(p: Path, bare: boolean): string {
    return p
      .map((seg, i) => {
        if (typeof seg === "number") return `[${seg}]`;
        const text = bare && i === 0 ? seg : this.name(seg);
        return i === 0 ? text : `.${text}`;
      })
      .join("");
  }

  /** The placeholder maps to put on a request (absent when empty, as the API requires). */
  maps(): {
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues?: Record<string, AV>;
  } {
    const out: {
      ExpressionAttributeNames?: Record<string, string>;
      ExpressionAttributeValues?: Record<string, AV>;
    } = {};
    if (Object.keys(this.names).length > 0) out.ExpressionAttributeNames = { ...this.names };
    if (Object.keys(this.values).length > 0) out.ExpressionAttributeValues = { ...this.values };
    return out;
  }
}
