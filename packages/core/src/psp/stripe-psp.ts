import type { ChargeParams, PspOrigin, PspPort, PspReply } from "./psp-port";

/**
 * PLACEHOLDER (branch i30c only): the Stripe adapter is built on branch i30b; merging it replaces this file. It keeps
 * the constructor agreed on for issue 30 so that the wiring compiles, and refuses every call.
 */
export class StripePsp implements PspPort {
  constructor(
    readonly secretKey: string | (() => string),
    readonly opts: { host?: string; port?: number; protocol?: "http" | "https" } = {},
  ) {}

  charge(_key: string, _p: ChargeParams, _t: number, _o?: PspOrigin): Promise<PspReply> {
    return notBuilt();
  }
  refund(_key: string, _c: string, _r: string, _t: number, _o?: PspOrigin): Promise<PspReply> {
    return notBuilt();
  }
  findCharge(_r: string, _t: number, _o?: PspOrigin): Promise<PspReply> {
    return notBuilt();
  }
  findRefund(_c: string, _t: number, _o?: PspOrigin): Promise<PspReply> {
    return notBuilt();
  }
}

function notBuilt(): Promise<never> {
  return Promise.reject(
    new Error("StripePsp: not built yet (placeholder; the adapter comes from branch i30b)"),
  );
}
