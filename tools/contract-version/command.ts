/**
 * `npm run version:contract -- --base <git ref | file> [--spec openapi/openapi.yaml] [--write]`
 *
 * The generated package's version, from what changed in the contract since `--base` (a git ref,
 * the last release's tag for instance, or a file): each change with its JSON pointer, and the
 * classification, major, minor, patch or none (see diff/contract-diff.ts for the rules).
 *
 * The version is `x-sdk.packageVersion` of the contract (the package's semver, independent of
 * `info.version`, the API's own version); without it the base's `info.version` is the starting
 * point. `--write` sets `x-sdk.packageVersion` in the contract (a one-line edit) and adds an entry
 * to the CHANGELOG.md beside the contract, which the generator ships in the package.
 *
 * Exit codes: 0 done (a change or none), 1 an error (a base that is neither a file nor a commit,
 * a contract that does not load), 2 a bad command line.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseCommandLine } from "../../generator/cli/args.ts";
import { loadContract } from "../../generator/load/contract.ts";
import { changelogEntry, updateChangelog } from "./changelog.ts";
import { packageVersion } from "./contract.ts";
import { loadBase } from "./git.ts";
import { compareContracts, type VersionReport } from "./report.ts";
import { compareVersions } from "./semver.ts";
import { setPackageVersion } from "./set-package-version.ts";

const OPTIONS_TEXT = `--base <git ref | file> [--spec openapi/openapi.yaml] [--write] [--changelog FILE] [--date YYYY-MM-DD] [--json]`;

/** `command` is how the usage names it: `gpu-cloud-generator version-contract` from the generator's package. */
export async function main(argv: string[], out = process.stdout, err = process.stderr, command = "npm run version:contract --"): Promise<number> {
  const USAGE = `usage: ${command} ${OPTIONS_TEXT}`;
  const args = parseCommandLine(
    argv,
    {
      base: { type: "string" },
      spec: { type: "string", default: "openapi/openapi.yaml" },
      write: { type: "boolean", default: false },
      changelog: { type: "string" },
      date: { type: "string" },
      json: { type: "boolean", default: false },
    },
    USAGE,
    out,
    err,
  );
  if (args.exitCode !== undefined) return args.exitCode;
  const { values } = args;
  if (!values.base) {
    err.write(`--base is required\n${USAGE}\n`);
    return 2;
  }
  const date = values.date ?? new Date().toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) {
    err.write(`--date must be YYYY-MM-DD\n`);
    return 2;
  }
  const head = await loadContract(values.spec);
  const base = await loadBase(values.base, values.spec);
  let report: VersionReport;
  try {
    report = compareContracts(base.contract, head);
  } finally {
    base.cleanup();
  }
  const declared = packageVersion(head.document as any);
  // A version set by hand above the computed one is kept: the tool never lowers it.
  const target = report.classification !== "none" && compareVersions(declared, report.nextVersion) > 0 ? declared : report.nextVersion;

  if (values.json) out.write(`${JSON.stringify({ ...report, nextVersion: target, base: base.label }, null, 2)}\n`);
  else {
    for (const change of report.changes) out.write(`${change.bump.padEnd(5)}  ${change.pointer}  ${change.message}\n`);
    out.write(
      report.classification === "none"
        ? `no change since ${base.label}: the package stays at ${report.previousVersion}\n`
        : `${report.classification}: ${report.previousVersion} → ${target} (${report.changes.length} change${report.changes.length === 1 ? "" : "s"} since ${base.label})\n`,
    );
  }
  if (!values.write || report.classification === "none") return 0;

  const specText = fs.readFileSync(values.spec, "utf8");
  const hasDeclared = (head.document as any)["x-sdk"]?.packageVersion !== undefined;
  // The contract already declares the target (a rerun, or a version set by hand): its text stays as is.
  const updated = declared === target && hasDeclared ? specText : setPackageVersion(specText, target);
  const changelogPath = values.changelog ?? path.join(path.dirname(path.resolve(values.spec)), "CHANGELOG.md");
  const existing = fs.existsSync(changelogPath) ? fs.readFileSync(changelogPath, "utf8") : undefined;
  const changelog = updateChangelog(existing, changelogEntry({ ...report, nextVersion: target }, { date, baseLabel: base.label }), target);
  fs.writeFileSync(values.spec, updated);
  fs.writeFileSync(changelogPath, changelog);
  out.write(`wrote x-sdk.packageVersion: ${target} to ${values.spec} and an entry to ${changelogPath}; now run \`npm run generate\`\n`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    // A contract or base problem is the user's to fix: its message, not a stack trace.
    (error: unknown) => {
      process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
