import { createHook } from "node:async_hooks";
const stacks = new WeakMap<object, string>();
createHook({
  init(_id, type, _t, resource) {
    if (type === "PROMISE") stacks.set(resource as object, (new Error().stack ?? "").split("\n").slice(2, 14).filter((l) => !l.includes("node:internal")).join("\n"));
  },
}).enable();
process.on("unhandledRejection", (reason, promise) => {
  console.log("UNHANDLED", String(reason), "\n", stacks.get(promise) ?? "(no stack)");
  process.exit(9);
});
