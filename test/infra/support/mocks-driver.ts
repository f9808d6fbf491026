/**
 * Runs inside the bundled SST program (a child process started by sst-program.ts): answers the SST CLI's RPC
 * locally, installs Pulumi mocks, runs the program in a Pulumi stack and writes what it registered as JSON.
 * No AWS, no Pulumi engine, no network beyond 127.0.0.1.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Capture, CapturedResource, Json, JsonObject } from "./capture";

/** The fake AWS account of every ARN the mocks answer with. */
export const MOCK_ACCOUNT = "123456789012";

interface MockResourceArgs {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
  provider?: string;
  custom?: boolean;
  id?: string;
}
interface MockCallArgs {
  token: string;
  inputs: Record<string, unknown>;
  provider?: string;
}
interface TransformationArgs {
  type: string;
  name: string;
  opts: { retainOnDelete?: boolean; protect?: boolean; ignoreChanges?: string[]; dependsOn?: unknown };
}
/** The part of `@pulumi/pulumi` the driver uses (passed in by the bundle, which resolves the platform's copy). */
export interface PulumiApi {
  runtime: {
    setMocks(
      mocks: {
        newResource(
          args: MockResourceArgs,
        ): Promise<{ id: string | undefined; state: Record<string, unknown> }>;
        call(args: MockCallArgs): Promise<Record<string, unknown>>;
      },
      project?: string,
      stack?: string,
      preview?: boolean,
    ): Promise<void>;
    runInPulumiStack(init: () => Promise<unknown>): Promise<unknown>;
    registerStackTransformation(t: (args: TransformationArgs) => undefined): void;
    waitForRPCs?: () => Promise<void>;
  };
}

/** Runs `program` (SST's `run(mod.run)`, given a hook to call once SST registered its transformations). */
export async function drive(
  pulumi: PulumiApi,
  program: (beforeRun: () => void) => Promise<unknown>,
): Promise<void> {
  const out = process.env.SST_MOCKS_OUT;
  if (!out) throw new Error("SST_MOCKS_OUT is not set");
  const app = JSON.parse(process.env.SST_MOCKS_APP ?? "{}") as Capture["app"];
  const defaultRegion = process.env.SST_MOCKS_DEFAULT_REGION ?? "us-east-1";
  const capture: Capture = {
    app: { name: app.name, stage: app.stage, removal: app.removal, protect: app.protect },
    resources: [],
    builds: [],
    unknownInvokes: [],
    errors: [],
    outputs: null,
  };
  const onError = (error: unknown) => capture.errors.push(describe(error));
  process.on("unhandledRejection", onError);
  process.on("uncaughtException", onError);

  const providerRegions = new Map<string, string>();
  const regionOf = (providerRef: string | undefined, inputs?: Record<string, unknown>) => {
    if (typeof inputs?.region === "string" && inputs.region) return inputs.region;
    const name = providerRef ? providerName(providerRef) : undefined;
    return (name && providerRegions.get(name)) || defaultRegion;
  };

  const server = await startRpcFake(capture);
  const opts = new Map<string, CapturedResource["opts"]>();
  // Explicit dependencies as given (a promise or an output may still be pending): named once the run settled.
  const dependsOn = new Map<string, unknown>();
  try {
    await pulumi.runtime.setMocks(
      {
        async newResource(args) {
          const custom = args.custom !== false;
          const id = custom ? `${args.name}-id` : "";
          if (args.type.startsWith("pulumi:providers:")) {
            providerRegions.set(args.name, String(args.inputs.region ?? defaultRegion));
          }
          const state = custom
            ? mockState(args.type, args.name, id, args.inputs, regionOf(args.provider, args.inputs))
            : {};
          capture.resources.push({
            type: args.type,
            name: args.name,
            custom,
            provider: args.provider ?? "",
            id,
            inputs: toJson(args.inputs) as JsonObject,
            state: toJson(state) as JsonObject,
            opts: {},
          });
          return { id: custom ? id : undefined, state };
        },
        async call(args) {
          return mockCall(args, regionOf(args.provider), capture);
        },
      },
      app.name,
      app.stage,
      false,
    );

    const outputs = await pulumi.runtime.runInPulumiStack(() =>
      program(() =>
        // Registered after SST's own stack transformations, so it sees the options they set.
        pulumi.runtime.registerStackTransformation((args) => {
          opts.set(`${args.type}::${args.name}`, {
            retainOnDelete: args.opts.retainOnDelete,
            protect: args.opts.protect,
            ...(args.opts.ignoreChanges ? { ignoreChanges: [...args.opts.ignoreChanges] } : {}),
          });
          if (args.opts.dependsOn !== undefined)
            dependsOn.set(`${args.type}::${args.name}`, args.opts.dependsOn);
          return undefined;
        }),
      ),
    );
    capture.outputs = toJson(outputs);
    await settle(pulumi, capture);
    for (const [key, given] of dependsOn) {
      const names = await dependencyNames(given);
      const seen = opts.get(key);
      if (seen) seen.dependsOn = names;
    }
  } catch (error) {
    onError(error);
  } finally {
    server.close();
  }
  for (const r of capture.resources) r.opts = opts.get(`${r.type}::${r.name}`) ?? {};
  writeFileSync(out, JSON.stringify(capture));
  process.exit(0);
}

/** SST creates many resources inside `apply()`: wait until no RPC is pending and the count stops moving. */
async function settle(pulumi: PulumiApi, capture: Capture): Promise<void> {
  const deadline = Date.now() + 60_000;
  let last = -1;
  let stableRounds = 0;
  while (stableRounds < 3 && Date.now() < deadline) {
    await pulumi.runtime.waitForRPCs?.();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const count = capture.resources.length;
    stableRounds = count === last ? stableRounds + 1 : 0;
    last = count;
  }
  if (stableRounds < 3) capture.errors.push("the resource count did not settle within 60 s");
}

/**
 * The logical names of the resources in a `dependsOn` option, unwrapped as Pulumi does (arrays, promises, outputs);
 * told apart by Pulumi's own markers, since the platform's `@pulumi/pulumi` is not this module's. A value that is
 * none of these is named `(not a resource)`, so a check sees it.
 */
async function dependencyNames(given: unknown): Promise<string[]> {
  if (given === undefined || given === null) return [];
  if (Array.isArray(given)) return (await Promise.all(given.map(dependencyNames))).flat();
  if (given instanceof Promise) return dependencyNames(await given);
  const marked = given as { __pulumiOutput?: boolean; __pulumiResource?: boolean; __name?: string };
  if (marked.__pulumiOutput)
    return dependencyNames(await (given as { promise(): Promise<unknown> }).promise());
  if (marked.__pulumiResource) return [String(marked.__name)];
  return ["(not a resource)"];
}

/** Answers the RPC calls SST's components make to the CLI (`SST_SERVER`). */
async function startRpcFake(capture: Capture): Promise<Server> {
  const buildRoot = join(tmpdir(), `sst-mocks-build-${process.pid}`);
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const { method, params } = JSON.parse(body) as { method: string; params: Record<string, unknown>[] };
      const args = params[0] ?? {};
      const reply = (result: unknown, error?: string) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ id: null, result: result ?? null, error: error ?? null }));
      };
      if (method === "Provider.Aws.Bootstrap") {
        const region = String(args.region);
        return reply({
          asset: `sst-asset-${region}`,
          assetEcrRegistryId: MOCK_ACCOUNT,
          assetEcrUrl: `${MOCK_ACCOUNT}.dkr.ecr.${region}.amazonaws.com/sst-asset`,
          state: `sst-state-${region}`,
          appsyncHttp: "",
          appsyncRealtime: "",
        });
      }
      if (method === "Runtime.Build") {
        const functionID = String(args.functionID);
        capture.builds.push({
          functionID,
          handler: String(args.handler),
          runtime: String(args.runtime),
          // What SST seals into the bundle's resource.enc (SST_KEY_FILE): the function's links.
          links: toJson(args.links ?? {}) as JsonObject,
        });
        // The bundle test builds the real handlers; here a placeholder file is enough to zip.
        const out = join(buildRoot, functionID);
        mkdirSync(out, { recursive: true });
        writeFileSync(join(out, "index.mjs"), "export const handler = async () => {};\n");
        return reply({ handler: String(args.handler), out, errors: [], sourcemaps: [] });
      }
      return reply(null, `rpc: can't find service ${method}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.SST_SERVER = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return server;
}

/** The outputs a real provider would add: physical names, ARNs, URLs, stream ARNs of tables and replicas. */
function mockState(
  type: string,
  name: string,
  id: string,
  inputs: Record<string, unknown>,
  region: string,
): Record<string, unknown> {
  const physical = typeof inputs.name === "string" && inputs.name ? inputs.name : name;
  const state: Record<string, unknown> = { ...inputs, id };
  const service = type.split(":")[1]?.split("/")[0] ?? "unknown";
  const kind = type.split(":")[2]?.toLowerCase() ?? "resource";
  state.arn = `arn:aws:${service}:${region}:${MOCK_ACCOUNT}:${kind}/${physical}`;
  switch (type) {
    case "aws:dynamodb/table:Table": {
      const tableArn = (r: string) => `arn:aws:dynamodb:${r}:${MOCK_ACCOUNT}:table/${physical}`;
      const streamArn = (r: string) =>
        inputs.streamEnabled ? `${tableArn(r)}/stream/2025-01-01T00:00:00.000` : undefined;
      Object.assign(state, { name: physical, arn: tableArn(region), streamArn: streamArn(region) });
      const replicas = Array.isArray(inputs.replicas) ? (inputs.replicas as Record<string, unknown>[]) : [];
      state.replicas = replicas.map((r) => ({
        ...r,
        arn: tableArn(String(r.regionName)),
        streamArn: streamArn(String(r.regionName)),
      }));
      break;
    }
    case "aws:sqs/queue:Queue":
      Object.assign(state, {
        name: physical,
        arn: `arn:aws:sqs:${region}:${MOCK_ACCOUNT}:${physical}`,
        url: `https://sqs.${region}.amazonaws.com/${MOCK_ACCOUNT}/${physical}`,
      });
      break;
    case "aws:lambda/function:Function": {
      const arn = `arn:aws:lambda:${region}:${MOCK_ACCOUNT}:function:${physical}`;
      Object.assign(state, {
        name: physical,
        arn,
        qualifiedArn: `${arn}:$LATEST`,
        version: "$LATEST",
        invokeArn: `arn:aws:apigateway:${region}:lambda:path/2015-03-31/functions/${arn}/invocations`,
        responseStreamingInvokeArn: `arn:aws:apigateway:${region}:lambda:path/2021-11-15/functions/${arn}/response-streaming-invocations`,
        lastModified: "2025-01-01T00:00:00.000+0000",
      });
      break;
    }
    case "aws:iam/role:Role":
      Object.assign(state, { name: physical, arn: `arn:aws:iam::${MOCK_ACCOUNT}:role/${physical}` });
      break;
    case "aws:apigatewayv2/api:Api":
      Object.assign(state, {
        apiEndpoint: `https://${id}.execute-api.${region}.amazonaws.com`,
        executionArn: `arn:aws:execute-api:${region}:${MOCK_ACCOUNT}:${id}`,
        arn: `arn:aws:apigateway:${region}::/apis/${id}`,
      });
      break;
    case "aws:sns/platformApplication:PlatformApplication":
      state.arn = `arn:aws:sns:${region}:${MOCK_ACCOUNT}:app/${String(inputs.platform)}/${physical}`;
      break;
    case "aws:sesv2/emailIdentity:EmailIdentity": {
      // Easy DKIM gives a domain identity its own tokens in each Region; an address has none.
      const identity = String(inputs.emailIdentity);
      const tokens = identity.includes("@")
        ? []
        : [1, 2, 3].map((i) => `dkim${i}${region.replace(/-/g, "")}${identity.replace(/\W/g, "")}`);
      Object.assign(state, {
        arn: `arn:aws:ses:${region}:${MOCK_ACCOUNT}:identity/${identity}`,
        dkimSigningAttributes: { tokens },
      });
      break;
    }
    case "pulumi-nodejs:dynamic:Resource":
      // SST's HostedZoneLookup: the account's hosted zone of the record's registrable domain.
      if (name.includes("HostedZoneLookup") && typeof inputs.domain === "string") {
        state.zoneId = `Zmock-${inputs.domain.split(".").slice(-2).join(".")}`;
      }
      break;
    case "aws:sesv2/configurationSet:ConfigurationSet":
      state.arn = `arn:aws:ses:${region}:${MOCK_ACCOUNT}:configuration-set/${String(inputs.configurationSetName)}`;
      break;
    case "aws:cloudwatch/logGroup:LogGroup":
      state.arn = `arn:aws:logs:${region}:${MOCK_ACCOUNT}:log-group:${physical}`;
      break;
    case "random:index/randomBytes:RandomBytes":
      Object.assign(state, { base64: Buffer.alloc(32).toString("base64"), hex: "00".repeat(32) });
      break;
  }
  return state;
}

/** Answers provider functions (invokes); an IAM policy document is rendered as AWS would. */
function mockCall(args: MockCallArgs, region: string, capture: Capture): Record<string, unknown> {
  switch (args.token) {
    case "aws:index/getRegion:getRegion":
      return {
        id: region,
        name: region,
        region,
        endpoint: `ec2.${region}.amazonaws.com`,
        description: region,
      };
    case "aws:index/getPartition:getPartition":
      return { id: "aws", partition: "aws", dnsSuffix: "amazonaws.com", reverseDnsPrefix: "com.amazonaws" };
    case "aws:index/getCallerIdentity:getCallerIdentity":
      return {
        id: MOCK_ACCOUNT,
        accountId: MOCK_ACCOUNT,
        arn: `arn:aws:iam::${MOCK_ACCOUNT}:user/mock`,
        userId: "MOCK",
      };
    case "aws:iam/getPolicyDocument:getPolicyDocument": {
      const json = JSON.stringify(policyDocument(args.inputs));
      return { ...args.inputs, id: "policy", json, minifiedJson: json };
    }
    default:
      capture.unknownInvokes.push(args.token);
      return {};
  }
}

function policyDocument(inputs: Record<string, unknown>) {
  const statements = (Array.isArray(inputs.statements) ? inputs.statements : []) as Record<string, unknown>[];
  return {
    Version: "2012-10-17",
    Statement: statements.map((s) => {
      const principals = (s.principals ?? []) as { type: string; identifiers: string[] }[];
      const conditions = (s.conditions ?? []) as { test: string; variable: string; values: string[] }[];
      return {
        ...(s.sid ? { Sid: s.sid } : {}),
        Effect: s.effect ?? "Allow",
        ...(s.actions ? { Action: s.actions } : {}),
        ...(s.resources ? { Resource: s.resources } : {}),
        ...(principals.length
          ? { Principal: Object.fromEntries(principals.map((p) => [p.type, p.identifiers])) }
          : {}),
        ...(conditions.length
          ? {
              Condition: Object.fromEntries(
                conditions.map((c) => [c.test, { [c.variable]: c.values }] as const),
              ),
            }
          : {}),
      };
    }),
  };
}

/** The name inside a provider reference `urn:pulumi:stack::project::pulumi:providers:aws::Name::id`. */
export function providerName(ref: string): string | undefined {
  const parts = ref.split("::");
  return parts.length >= 5 ? parts[parts.length - 2] : undefined;
}

/** Pulumi's wire signature of a secret value (rpc.specialSigKey / specialSecretSig). */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SECRET_VALUE = "1b47061264138c4ac30d75fd1eb44270";

function toJson(value: unknown, seen = new WeakSet<object>()): Json {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "object") return null;
  // A secret arrives wrapped as { [SECRET_SIG]: SECRET_VALUE, value }: record its value.
  const record = value as Record<string, unknown>;
  if (record[SECRET_SIG] === SECRET_VALUE) return toJson(record.value, seen);
  if (seen.has(value)) return null; // a cycle
  seen.add(value);
  let out: Json;
  if (Array.isArray(value)) {
    out = value.map((v) => toJson(v, seen));
  } else {
    const obj: JsonObject = {};
    for (const [k, v] of Object.entries(value)) {
      if (v !== undefined && typeof v !== "function") obj[k] = toJson(v, seen);
    }
    out = obj;
  }
  seen.delete(value);
  return out;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : String(error);
}
