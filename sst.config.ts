/// <reference path="./.sst/platform/config.d.ts" />

// Deploys the payments app to a primary and a standby Region: `npx sst deploy --stage <name>`.
// Settings come from the environment (see stacks/config.ts); the stacks live in stacks/.
export default $config({
  async app(input) {
    const { isProduction, readRegions } = await import("./stacks/config");
    const production = isProduction(input?.stage);
    return {
      name: "effectively-once",
      home: "aws",
      removal: production ? "retain" : "remove",
      protect: production,
      providers: { aws: { region: readRegions().primary } },
    };
  },
  async run() {
    const { readConfig } = await import("./stacks/config");
    const { createSecrets } = await import("./stacks/secrets");
    const { createTables } = await import("./stacks/tables");
    const { createControlAuthority } = await import("./stacks/control-authority");
    const { createQueues } = await import("./stacks/queues");
    const { createRegion } = await import("./stacks/region");
    const { failoverOutputs } = await import("./stacks/failover-outputs");
    const { operatorPolicy } = await import("./stacks/operator-policy");

    const config = readConfig($app.stage);
    const providers = {
      primary: new aws.Provider("PrimaryAws", { region: config.regions.primary }),
      standby: new aws.Provider("StandbyAws", { region: config.regions.standby }),
    };
    const secrets = createSecrets(config.psp);
    const tables = createTables(config, providers);
    const authority = createControlAuthority(config, providers);
    // Both Regions' queues before either Region: each Region's worker is told the other's events queue.
    const queues = createQueues(providers);
    const shared = { config, providers, secrets, tables, authority, queues };
    const primary = createRegion("primary", shared);
    const standby = createRegion("standby", shared);
    const functions = { primary: primary.functions, standby: standby.functions };

    return {
      claimMode: config.claimMode,
      psp: config.psp,
      controlMode: config.controlMode,
      primaryRegion: config.regions.primary,
      primaryApi: primary.api.url,
      standbyRegion: config.regions.standby,
      standbyApi: standby.api.url,
      // Each Region's alarms page through its topic; subscribe more on-call endpoints to these.
      onCallTopics: { primary: primary.onCall.topic.arn, standby: standby.onCall.topic.arn },
      // What the operator scripts read with `--stage` (data-plane calls only): the stage, each Region's tables,
      // queues and scheduled functions, and where the authority lives.
      failover: failoverOutputs(config, tables.byRole, authority, functions, queues.byRole),
      // The on-call IAM policy: exactly what those scripts do, on this stage's resources (stacks/operator-policy.ts).
      operatorPolicy: operatorPolicy({ tables: tables.byRole, authority, queues: queues.byRole, functions }),
    };
  },
});
