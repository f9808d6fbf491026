import { type JWTPayload, jwtVerify, SignJWT } from "jose";

export const LOCAL_JWT_ISSUER = "effectively-once-local";
export const LOCAL_JWT_AUDIENCE = "payments-api";

/** The local stand-in for API Gateway's JWT authorizer's secret (HS256). */
export function localJwtSecret(): Uint8Array {
  return new TextEncoder().encode(process.env.LOCAL_JWT_SECRET ?? "local-dev-secret-change-me");
}

/**
 * Verifies a Bearer token as the contract says (HS256, iss, aud, exp required). Expiry is checked on
 * wall time, as API Gateway does, not on the local clock: a test that moves the clock two hours to
 * cross a key window is simulating the server's memory, not the token's life.
 */
export async function verifyBearer(header: string | undefined): Promise<JWTPayload | undefined> {
  const token = /^Bearer\s+(\S+)$/i.exec(header ?? "")?.[1];
  if (!token) return undefined;
  try {
    const { payload } = await jwtVerify(token, localJwtSecret(), {
      issuer: LOCAL_JWT_ISSUER,
      audience: LOCAL_JWT_AUDIENCE,
      algorithms: ["HS256"],
      requiredClaims: ["exp", "sub"],
    });
    return payload;
  } catch {
    return undefined;
  }
}

/** Mints a local token for a caller, for `npm start` users and tests. */
export async function mintToken(
  sub: string,
  opts: { email?: string; expiresInS?: number; secret?: Uint8Array } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims: JWTPayload = opts.email ? { email: opts.email } : {};
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(sub)
    .setIssuer(LOCAL_JWT_ISSUER)
    .setAudience(LOCAL_JWT_AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + (opts.expiresInS ?? 3600))
    .sign(opts.secret ?? localJwtSecret());
}
