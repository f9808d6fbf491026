// Module hooks of the simulation (registered by region-modules.ts): a module imported by a Region's module graph is
// that Region's own instance, as each Region's Lambdas have their own. The tag is a query on the project's file URLs;
// packages under node_modules stay shared, as a library's code is the same in both Regions.
const TAG = "eo-sim-region";

let root = "";

export function initialize(data) {
  root = data.root;
}

function tagOf(url) {
  if (!url) return undefined;
  const q = url.indexOf("?");
  return q === -1 ? undefined : (new URLSearchParams(url.slice(q + 1)).get(TAG) ?? undefined);
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const tag = tagOf(context.parentURL);
  const url = resolved.url;
  if (!tag || !url.startsWith(root) || url.includes("/node_modules/") || tagOf(url) === tag) return resolved;
  return { ...resolved, url: `${url}${url.includes("?") ? "&" : "?"}${TAG}=${encodeURIComponent(tag)}` };
}
