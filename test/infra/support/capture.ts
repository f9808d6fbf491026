/** What the Pulumi-mocks run of the SST app records: every registered resource, build and invoke. */

/** A JSON value as written by the mocks driver. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** One resource the program registered (custom resources, providers and components alike). */
export interface CapturedResource {
  type: string;
  /** The logical (Pulumi) name. */
  name: string;
  custom: boolean;
  /** The provider reference (`<provider urn>::<id>`), or "" for the default provider or none. */
  provider: string;
  id: string;
  inputs: JsonObject;
  /** The outputs the mocks answered with: the inputs plus ids, names and ARNs. */
  state: JsonObject;
  /** Resource options seen after SST's stack transformations (only those the checks read). */
  opts: {
    retainOnDelete?: boolean;
    protect?: boolean;
    ignoreChanges?: string[];
    /** The logical names of the resources it was told to wait for (`dependsOn`), when it was. */
    dependsOn?: string[];
  };
}

/** The whole record of one run of the app under Pulumi mocks. */
export interface Capture {
  /** The `$app` the program ran with (from `app()` of sst.config.ts). */
  app: { name: string; stage: string; removal: string; protect: boolean };
  resources: CapturedResource[];
  /** Every `Runtime.Build` request SST made (one per function). */
  builds: { functionID: string; handler: string; runtime: string; links: JsonObject }[];
  /** Invoke tokens the mocks had no answer for. */
  unknownInvokes: string[];
  /** Errors raised while the program ran (rejections, failed applies). */
  errors: string[];
  outputs: Json;
}
