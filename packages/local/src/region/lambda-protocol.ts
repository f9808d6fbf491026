import type { LinkedResources } from "@eo/core";

/** What the main thread hands the standby's Lambda worker when it starts it. */
export interface LambdaWorkerData {
  sharedState: SharedArrayBuffer;
}

/** One invocation, as Lambda's Invoke API carries it: the function, its event and its time left. */
export interface InvokeRequest {
  id: number;
  functionName: string;
  /** `path/to/module.exportName`, as stacks/handlers.ts names it. */
  handler: string;
  /** The function's links (its PSP secret, if its manifest entry declares one), as SST seals them in AWS. */
  links: LinkedResources;
  event: unknown;
  timeoutMs: number;
}

/** What came of it: the handler's result, or the error Lambda would have recorded. */
export type InvokeReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { name: string; message: string } };
