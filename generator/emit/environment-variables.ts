/**
 * The environment variables a generated client (and so its terminal command) reads, each with a
 * line saying what it sets: for the command's `--help` and the package README.
 */
import type { ApiModel } from "../model/index.ts";

/** Every environment variable the client reads, as `--help` lists them: credentials, base URLs, logging. */
export function environmentVariables(api: ApiModel): Array<{ name: string; description: string }> {
  const credentials = api.security.schemes.flatMap((s) => s.options).map((o) => ({ name: o.envVar, description: `the ${o.label}` }));
  const servers = api.servers.map((s) => {
    const what = (s.description ?? "").split("\n")[0]!.replace(/[.:]\s*$/, "").trim();
    return { name: s.envVar, description: `${what === "" ? `the ${s.key}` : what}: base URL${s.relative ? "" : ` (default ${s.defaultUrl})`}` };
  });
  const logging = { name: api.logEnvVar, description: "debug: each request attempt on stderr, credentials blanked; warn: warnings only; off (default)" };
  return [...credentials, ...servers, logging];
}
