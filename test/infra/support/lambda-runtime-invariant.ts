/**
 * Issue 41, item 5: Lambda's runtime. Every function in both Regions runs on Graviton (arm64, billed below x86_64),
 * on the Node.js runtime the tests run on, with the memory its handler spec names (stacks/handlers.ts), so that
 * the cost bench's GB-seconds and the deployed functions agree. SST's default is x86_64 and 1024 MB.
 */
import { handlers } from "../../../stacks/handlers";
import type { Invariant, View } from "./invariants";
import { arr } from "./json";

const ROLES = ["primary", "standby"] as const;
/** Held to the issue, not read from the stacks: the runtime of the Lambda Node.js major the tests run on. */
const RUNTIME = "nodejs22.x";
const ARCHITECTURE = "arm64";

function regionProblems(v: View, role: (typeof ROLES)[number]): string[] {
  const out: string[] = [];
  for (const f of v.functionsIn(role)) {
    const spec = handlers.find((h) => h.handler === f.inputs.handler);
    const id = spec?.id ?? f.name;
    // Lambda's own default when the list is absent is x86_64.
    const archs = arr(f.inputs.architectures).map(String);
    if (archs.length !== 1 || archs[0] !== ARCHITECTURE)
      out.push(
        `${role}: ${id} runs on ${archs.length ? archs.join(",") : "x86_64 (the default)"}, not arm64`,
      );
    if (f.inputs.runtime !== RUNTIME) out.push(`${role}: ${id} runs ${f.inputs.runtime}, not ${RUNTIME}`);
    if (!spec) {
      out.push(`${role}: ${f.name} runs no handler of stacks/handlers.ts, so no memory is specified for it`);
      continue;
    }
    const memory = Number(f.inputs.memorySize);
    if (memory !== spec.memoryMB)
      out.push(`${role}: ${id} has ${f.inputs.memorySize ?? "no"} MB, its spec names ${spec.memoryMB} MB`);
  }
  return out;
}

/** Each Region's functions: arm64, the tests' Node.js major, and the memory of their spec. */
export const lambdaRuntime: Invariant = {
  name: "every function runs arm64 on nodejs22.x with the memory its handler spec names",
  check: (v) => ROLES.flatMap((role) => regionProblems(v, role)),
};
