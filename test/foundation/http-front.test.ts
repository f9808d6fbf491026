import type { Server } from "node:http";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpFront } from "../../packages/local/src/runtime/http-front";
import {
  LOCAL_JWT_AUDIENCE,
  LOCAL_JWT_ISSUER,
  localJwtSecret,
  mintToken,
} from "../../packages/local/src/runtime/jwt";

const seen: Array<Record<string, unknown>> = [];
let server: Server;
let base: string;

beforeAll(async () => {
  const handler = async (event: Record<string, unknown>) => {
    seen.push(event);
    return {
      statusCode: 200,
      headers: { "x-echo": "yes" },
      body: Buffer.from("hello").toString("base64"),
      isBase64Encoded: true,
    };
  };
  server = await startHttpFront(
    0,
    [
      {
        method: "POST",
        path: "/things/{id}",
        functionName: "echo",
        auth: true,
        load: async () => handler as never,
      },
    ],
    async () => undefined,
  );
  const addr = server.address();
  base = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** A token signed with the local secret and an hour's expiry, with the claims `set` gives it. */
const signed = (set: (t: SignJWT) => SignJWT) =>
  set(new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setIssuedAt().setExpirationTime("1h")).sign(
    localJwtSecret(),
  );

/** An unsecured JWT (RFC 7519 section 6): header `alg: none` and an empty signature. */
const unsigned = (claims: Record<string, unknown>) => {
  const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const exp = Math.floor(Date.now() / 1000) + 3600;
  return `${part({ alg: "none", typ: "JWT" })}.${part({ ...claims, exp })}.`;
};

const call = (token?: string) =>
  fetch(`${base}/things/t1?x=1`, {
    method: "POST",
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), "content-type": "application/json" },
    body: "{}",
  });

describe("the HTTP front (API Gateway and its JWT authorizer, locally)", () => {
  it.each([
    ["a missing token", async () => undefined],
    ["an expired token", async () => mintToken("u1", { expiresInS: -10 })],
    [
      "a wrongly signed token",
      async () => mintToken("u1", { secret: new TextEncoder().encode("another-secret") }),
    ],
    [
      "a token for another audience",
      async () =>
        new SignJWT({})
          .setProtectedHeader({ alg: "HS256" })
          .setSubject("u1")
          .setIssuer(LOCAL_JWT_ISSUER)
          .setAudience("someone-else")
          .setExpirationTime("1h")
          .sign(localJwtSecret()),
    ],
    [
      "a token without exp",
      async () =>
        new SignJWT({})
          .setProtectedHeader({ alg: "HS256" })
          .setSubject("u1")
          .setIssuer(LOCAL_JWT_ISSUER)
          .setAudience(LOCAL_JWT_AUDIENCE)
          .sign(localJwtSecret()),
    ],
    [
      "a token from another issuer",
      async () =>
        signed((t) =>
          t.setSubject("u1").setIssuer("https://someone-else.example").setAudience(LOCAL_JWT_AUDIENCE),
        ),
    ],
    [
      "an unsigned token (alg: none)",
      async () => unsigned({ sub: "u1", iss: LOCAL_JWT_ISSUER, aud: LOCAL_JWT_AUDIENCE }),
    ],
    [
      "a token not valid yet (nbf in the future)",
      async () =>
        signed((t) =>
          t
            .setSubject("u1")
            .setIssuer(LOCAL_JWT_ISSUER)
            .setAudience(LOCAL_JWT_AUDIENCE)
            .setNotBefore(Math.floor(Date.now() / 1000) + 600),
        ),
    ],
    [
      "a token without sub",
      async () => signed((t) => t.setIssuer(LOCAL_JWT_ISSUER).setAudience(LOCAL_JWT_AUDIENCE)),
    ],
  ])("answers 401 to %s without calling the handler", async (_name, token) => {
    const before = seen.length;
    const res = await call(await token());
    expect(res.status).toBe(401);
    expect(seen.length).toBe(before);
  });

  it("passes the arrival stamp, the sub and the path to the handler and renders its base64 body", async () => {
    // prepare
    const sent = Date.now();
    // act
    const res = await call(await mintToken("u7", { email: "u7@example.com" }));
    // assess
    const event = seen.at(-1) as {
      version: string;
      pathParameters: Record<string, string>;
      queryStringParameters: Record<string, string>;
      requestContext: { timeEpoch: number; authorizer: { jwt: { claims: Record<string, unknown> } } };
    };
    expect(res.status).toBe(200);
    expect(res.headers.get("x-echo")).toBe("yes");
    expect(await res.text()).toBe("hello");
    expect(event.version).toBe("2.0");
    expect(event.pathParameters).toEqual({ id: "t1" });
    expect(event.queryStringParameters).toEqual({ x: "1" });
    expect(event.requestContext.authorizer.jwt.claims.sub).toBe("u7");
    expect(event.requestContext.authorizer.jwt.claims.email).toBe("u7@example.com");
    expect(event.requestContext.timeEpoch).toBeGreaterThanOrEqual(sent - 5);
    expect(event.requestContext.timeEpoch).toBeLessThanOrEqual(Date.now());
  });
});
