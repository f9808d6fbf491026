/**
 * Route 53 records: one hosted zone holds one record set per name and type, so two resources that create the
 * same one cannot both deploy (the second fails, or with overwrite on, the two stacks fight over it).
 */
import type { CapturedResource } from "./capture";
import type { Invariant, View } from "./invariants";
import { arr, obj, str } from "./json";

const RECORD = "aws:route53/record:Record";
const ROLES = ["primary", "standby"] as const;

const fqdn = (name: string | undefined) => (name ?? "").toLowerCase().replace(/\.$/, "");
const recordKey = (r: CapturedResource) =>
  `${str(r.inputs.zoneId) ?? "(no zone)"} ${fqdn(str(r.inputs.name))} ${str(r.inputs.type)}`;

/** No two records share zone, name and type; a domain sender has one `_dmarc` record and each Region's DKIM records. */
export const dnsRecords: Invariant = {
  name: "each Route 53 record set created once, and the sender domain's records",
  check(v) {
    const out: string[] = [];
    const records = v.ofType(RECORD);
    const first = new Map<string, string>();
    for (const r of records) {
      const key = recordKey(r);
      const earlier = first.get(key);
      if (earlier) out.push(`${earlier} and ${r.name} both create ${key}: the second cannot be created`);
      else first.set(key, r.name);
    }
    const domain = v.expected.emailSender;
    if (domain.includes("@")) return out;
    const named = (type: string, name: string) =>
      records.filter((r) => r.inputs.type === type && fqdn(str(r.inputs.name)) === name);
    const dmarc = named("TXT", `_dmarc.${domain}`);
    if (dmarc.length !== 1) out.push(`${domain} has ${dmarc.length} _dmarc TXT records, expected 1`);
    for (const role of ROLES) out.push(...dkimProblems(v, role, domain, named));
    return out;
  },
};

/** Each DKIM token SES gave the Region's identity has its CNAME, else that identity never verifies. */
function dkimProblems(
  v: View,
  role: (typeof ROLES)[number],
  domain: string,
  named: (type: string, name: string) => CapturedResource[],
): string[] {
  const identity = v
    .ofType("aws:sesv2/emailIdentity:EmailIdentity")
    .find((i) => v.regionOf(i) === v.region(role) && i.inputs.emailIdentity === domain);
  if (!identity) return [`${role}: no SES identity for ${domain}`];
  const tokens = arr(obj(identity.state.dkimSigningAttributes).tokens).map(String);
  if (tokens.length === 0) return [`${role}: the SES identity for ${domain} has no DKIM tokens`];
  const out: string[] = [];
  for (const token of tokens) {
    const cname = named("CNAME", `${token}._domainkey.${domain}`);
    const target = `${token}.dkim.amazonses.com`;
    if (cname.length !== 1 || JSON.stringify(cname[0]?.inputs.records) !== JSON.stringify([target])) {
      out.push(
        `${role}: no DKIM record ${token}._domainkey.${domain} -> ${target}; the identity never verifies`,
      );
    }
  }
  return out;
}
