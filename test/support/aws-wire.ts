import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One AWS request as it went over the wire: the IAM action it needs and the resource it names, in its Region. */
export interface WireCall {
  service: string;
  /** The IAM action, e.g. `dynamodb:Query`, `lambda:InvokeFunction`, `cloudwatch:GetMetricStatistics`. */
  action: string;
  region: string;
  /** What the request names: a table (and index), a queue URL, a function; undefined for `*` (CloudWatch reads). */
  resource?: { kind: "table" | "queue" | "function"; name: string; index?: string };
}

/** What the wire answers itself: Lambda Invoke (a function name and its payload) and CloudWatch reads. */
export interface WireOptions {
  dynamodb: string;
  sqs: string;
  invoke(functionName: string, payload: unknown): Promise<unknown>;
}

/**
 * An AWS endpoint for operator scripts run against the local emulators as if against a stage: DynamoDB and SQS
 * requests go on to DynamoDB Local and fauxqs; Lambda Invoke and CloudWatch GetMetricStatistics (which have no
 * emulator) are answered here. Every request is recorded with the action and resource IAM would check: the
 * service and Region from its SigV4 scope, the operation from its target header or path, the resource from its body.
 */
export async function startAwsWire(o: WireOptions) {
  const calls: WireCall[] = [];
  const server = createServer((req, res) => {
    void handle(req, res, o, calls).catch((err: Error) => {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: err.message }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    calls,
    /** The variables that point an SDK at this wire, with the emulators' credentials. */
    env: {
      AWS_ENDPOINT_URL_DYNAMODB: url,
      AWS_ENDPOINT_URL_SQS: url,
      AWS_ENDPOINT_URL_LAMBDA: url,
      AWS_ENDPOINT_URL_CLOUDWATCH: url,
      AWS_ACCESS_KEY_ID: "local",
      AWS_SECRET_ACCESS_KEY: "local",
      AWS_REGION: "us-east-1",
    } as Record<string, string>,
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, o: WireOptions, calls: WireCall[]) {
  const body = await readBody(req);
  const scope = /Credential=[^/]+\/\d+\/([^/]+)\/([^/]+)\//.exec(req.headers.authorization ?? "");
  const [region, service] = [scope?.[1] ?? "?", scope?.[2] ?? "?"];
  const operation = String(req.headers["x-amz-target"] ?? "").split(".")[1] ?? "";
  const json = body.length > 0 && /json/.test(String(req.headers["content-type"])) ? JSON.parse(body) : {};
  if (service === "lambda") {
    const name = decodeURIComponent(/\/functions\/([^/]+)\/invocations/.exec(req.url ?? "")?.[1] ?? "");
    calls.push({ service, action: "lambda:InvokeFunction", region, resource: { kind: "function", name } });
    const out = await o.invoke(name, body ? JSON.parse(body) : {});
    res.writeHead(200, { "content-type": "application/json" });
    return void res.end(JSON.stringify(out));
  }
  if (service === "monitoring") {
    calls.push({ service, action: `cloudwatch:${operation}`, region });
    res.writeHead(200, { "content-type": "application/x-amz-json-1.0" });
    return void res.end(JSON.stringify({ Datapoints: [], Label: "ReplicationLatency" }));
  }
  if (service === "dynamodb") calls.push(...dynamoCalls(operation, region, json));
  else if (service === "sqs")
    calls.push({
      service,
      action: `sqs:${operation}`,
      region,
      resource: { kind: "queue", name: String(json.QueueUrl) },
    });
  else throw new Error(`the wire has no ${service}`);
  await forward(service === "dynamodb" ? o.dynamodb : o.sqs, req, body, res);
}

/** DynamoDB's calls as IAM sees them: a transaction needs each item's own action on each item's table. */
function dynamoCalls(operation: string, region: string, json: Record<string, unknown>): WireCall[] {
  const call = (action: string, table: unknown, index?: unknown): WireCall => ({
    service: "dynamodb",
    action: `dynamodb:${action}`,
    region,
    resource: { kind: "table", name: String(table), ...(index ? { index: String(index) } : {}) },
  });
  if (operation === "TransactWriteItems" || operation === "TransactGetItems") {
    const kinds = {
      Put: "PutItem",
      Update: "UpdateItem",
      Delete: "DeleteItem",
      ConditionCheck: "ConditionCheckItem",
      Get: "GetItem",
    };
    return (json.TransactItems as Array<Record<string, { TableName: string }>>).flatMap((item) =>
      Object.entries(item).map(([k, v]) => call(kinds[k as keyof typeof kinds], v.TableName)),
    );
  }
  if (operation.startsWith("Batch"))
    return Object.keys(json.RequestItems as object).map((t) => call(operation, t));
  return [call(operation, json.TableName, json.IndexName)];
}

function forward(to: string, req: IncomingMessage, body: string, res: ServerResponse): Promise<void> {
  const target = new URL(to);
  return new Promise((resolve, reject) => {
    const out = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 500, answer.headers);
        answer.pipe(res);
        answer.on("end", resolve);
      },
    );
    out.on("error", reject);
    out.end(body);
  });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
