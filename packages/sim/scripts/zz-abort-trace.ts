const add = EventTarget.prototype.addEventListener;
EventTarget.prototype.addEventListener = function (this: EventTarget, type: string, fn: any, opts?: any) {
  if (type === "abort" && typeof fn === "function") {
    const where = (new Error().stack ?? "").split("\n").slice(2, 5).join(" | ");
    const wrapped = function (this: unknown, ...a: unknown[]) { try { return fn.apply(this, a); } catch (e) { console.log("ABORT LISTENER THREW", where, String(fn).slice(0, 200)); throw e; } };
    return add.call(this, type, wrapped, opts);
  }
  return add.call(this, type, fn, opts);
};
