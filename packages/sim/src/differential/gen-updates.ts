import fc from "fast-check";
import { BARE_SAFE, pathArb, pathWithValue, valueForPath } from "./gen-paths";
import { NUMBERS } from "./gen-values";
import type { AV } from "./op";
import type { Path, RenderContext } from "./render";
import type { TableName } from "./tables";

/** A SET action as data: `p = :v`, `p = p ± :n`, `p = if_not_exists(p, :v)`, `p = list_append(…)`. */
export type SetAction =
  | { k: "assign"; path: Path; value: AV }
  | { k: "plus" | "minus"; path: Path; from: Path; value: AV }
  | { k: "ifNotExists"; path: Path; from: Path; value: AV }
  | { k: "append"; path: Path; value: AV; before: boolean };

/** An update expression as data: its four clauses (any may be empty). */
export interface Update {
  set: SetAction[];
  remove: Path[];
  add: [Path, AV][];
  del: [Path, AV][];
}

const numberValue = fc.constantFrom(...NUMBERS).map((n): AV => ({ N: n }));

function setActionArb(table: TableName): fc.Arbitrary<SetAction> {
  const counter = fc.constantFrom<Path>(["version"], ["amount"], ["expiration"], ["data", "a"], ["nums"]);
  return fc.oneof(
    {
      arbitrary: pathWithValue(table).map(([path, value]): SetAction => ({ k: "assign", path, value })),
      weight: 5,
    },
    {
      // `SET a = a + :n` (the budget's `tat = tat + :interval`), sometimes from another path or a wrong type
      arbitrary: fc
        .tuple(fc.constantFrom("plus" as const, "minus" as const), counter, counter, numberValue, fc.nat(9))
        .map(([k, path, other, value, r]): SetAction => ({ k, path, from: r < 7 ? path : other, value })),
      weight: 3,
    },
    {
      arbitrary: pathWithValue(table).map(
        ([path, value]): SetAction => ({ k: "ifNotExists", path, from: path, value }),
      ),
      weight: 2,
    },
    {
      arbitrary: fc
        .tuple(fc.constantFrom<Path>(["list"], ["note"]), valueForPath(table, ["list"]), fc.boolean())
        .map(([path, value, before]): SetAction => ({ k: "append", path, value, before })),
      weight: 2,
    },
  );
}

const setValue = fc.oneof(
  fc.subarray(["a", "b", "c"], { minLength: 1 }).map((v): AV => ({ SS: v })),
  fc.subarray(["1", "2", "0.5"], { minLength: 1 }).map((v): AV => ({ NS: v })),
);

/** An update of one to four actions spread over the clauses, like the project's updates. */
export function updateArb(table: TableName): fc.Arbitrary<Update> {
  const addArb = fc.oneof(
    fc.tuple(fc.constantFrom<Path>(["version"], ["amount"], ["expiration"]), numberValue),
    fc.tuple(fc.constantFrom<Path>(["members"], ["nums"], ["data", "tags"]), setValue),
  ) as fc.Arbitrary<[Path, AV]>;
  const delArb = fc.tuple(
    fc.constantFrom<Path>(["members"], ["nums"], ["data", "tags"]),
    setValue,
  ) as fc.Arbitrary<[Path, AV]>;
  const update = fc.record({
    set: fc.array(setActionArb(table), { maxLength: 3 }),
    remove: fc.array(pathArb(table), { maxLength: 2 }),
    add: fc.array(addArb, { maxLength: 1 }),
    del: fc.array(delArb, { maxLength: 1 }),
  });
  // overlapping paths are refused as a whole: keep one in twenty of them, enough to check that refusal
  return fc
    .tuple(update, fc.nat(19))
    .filter(
      ([u, n]) =>
        u.set.length + u.remove.length + u.add.length + u.del.length > 0 && (n === 0 || !overlaps(u)),
    )
    .map(([u]) => u);
}

/** Whether two actions write paths that overlap (one a prefix of the other): DynamoDB refuses such an update. */
function overlaps(u: Update): boolean {
  const paths = [
    ...u.set.map((a) => a.path),
    ...u.remove,
    ...u.add.map(([p]) => p),
    ...u.del.map(([p]) => p),
  ];
  const prefixOf = (a: Path, b: Path) => a.length <= b.length && a.every((seg, i) => seg === b[i]);
  return paths.some((a, i) => paths.some((b, j) => i !== j && prefixOf(a, b)));
}

/** Renders an update into expression text, registering its names and values on the context. */
export function renderUpdate(u: Update, ctx: RenderContext): string {
  const p = (path: Path) => ctx.path(path, BARE_SAFE.has(String(path[0])));
  const clauses: string[] = [];
  if (u.set.length > 0) clauses.push(`SET ${u.set.map((a) => renderSet(a, ctx, p)).join(", ")}`);
  if (u.remove.length > 0) clauses.push(`REMOVE ${u.remove.map(p).join(", ")}`);
  if (u.add.length > 0)
    clauses.push(`ADD ${u.add.map(([path, v]) => `${p(path)} ${ctx.value(v)}`).join(", ")}`);
  if (u.del.length > 0)
    clauses.push(`DELETE ${u.del.map(([path, v]) => `${p(path)} ${ctx.value(v)}`).join(", ")}`);
  return clauses.join(" ");
}

function renderSet(a: SetAction, ctx: RenderContext, p: (path: Path) => string): string {
  switch (a.k) {
    case "assign":
      return `${p(a.path)} = ${ctx.value(a.value)}`;
    case "plus":
      return `${p(a.path)} = ${p(a.from)} + ${ctx.value(a.value)}`;
    case "minus":
      return `${p(a.path)} = ${p(a.from)} - ${ctx.value(a.value)}`;
    case "ifNotExists":
      return `${p(a.path)} = if_not_exists(${p(a.from)}, ${ctx.value(a.value)})`;
    case "append": {
      const v = ctx.value(a.value);
      return `${p(a.path)} = ${a.before ? `list_append(${v}, ${p(a.path)})` : `list_append(${p(a.path)}, ${v})`}`;
    }
  }
}
