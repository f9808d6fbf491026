/** The local names of one Region's resources; the SST stacks give the same roles in AWS. */
export interface RegionResources {
  role: "primary" | "standby";
  region: string;
  claimTable: string;
  ledgerTable: string;
  consumerTable: string;
  /** The stream job's sink (Part 8): this Region's own, not replicated; each Region's job reads its own replica. */
  totalsTable: string;
  eventsQueue: string;
  eventsDlq: string;
  relayFailuresQueue: string;
  /** Batches the stream job gave up on (its own failure queue, read by `npm run recompute-totals`). */
  streamJobFailuresQueue: string;
}

/** The two local Regions. DynamoDB Local keeps a database per Region; fauxqs gets distinct queue names. */
export function localRegions(): { primary: RegionResources; standby: RegionResources } {
  const make = (role: "primary" | "standby", region: string): RegionResources => ({
    role,
    region,
    claimTable: "claims",
    ledgerTable: "ledger",
    consumerTable: "consumer",
    totalsTable: "totals",
    eventsQueue: `${role}-events.fifo`,
    eventsDlq: `${role}-events-dlq.fifo`,
    relayFailuresQueue: `${role}-relay-failures`,
    streamJobFailuresQueue: `${role}-stream-job-failures`,
  });
  return {
    primary: make("primary", process.env.PRIMARY_REGION ?? "us-east-1"),
    standby: make("standby", process.env.STANDBY_REGION ?? "us-west-2"),
  };
}

/** Credentials for every local emulator; DynamoDB Local keys its databases on them and the Region. */
export const LOCAL_CREDENTIALS = { accessKeyId: "local", secretAccessKey: "local" };
