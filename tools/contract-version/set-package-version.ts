/**
 * Sets `x-sdk.packageVersion` in the contract's YAML text as a one-line edit, so that comments,
 * quoting and order elsewhere in the file stay as the author wrote them.
 */
import { isDeepStrictEqual } from "node:util";
import YAML from "yaml";
import { SEMVER } from "./contract.ts";

/**
 * The contract's text with `x-sdk.packageVersion` set to `version`: only that scalar changes (or
 * one line is added to a block `x-sdk` map, or an `x-sdk` block is appended). Verified by parsing.
 */
export function setPackageVersion(text: string, version: string): string {
  if (!SEMVER.test(version)) throw new Error(`"${version}" is not a semver version`);
  const doc = YAML.parseDocument(text);
  const root = doc.contents;
  if (!YAML.isMap(root)) throw new Error("the contract is not a mapping");
  const sdkPair = root.items.find((pair) => YAML.isScalar(pair.key) && pair.key.value === "x-sdk");
  let result: string;
  if (!sdkPair) {
    if (YAML.isMap(root) && (root as YAML.YAMLMap).flow) throw new Error("cannot add x-sdk to a flow-style document: add `x-sdk: { packageVersion: ... }` by hand");
    result = `${text.replace(/\n*$/, "\n")}x-sdk:\n  packageVersion: ${version}\n`;
  } else {
    const sdk = sdkPair.value;
    if (!YAML.isMap(sdk)) throw new Error("x-sdk is not a mapping");
    const versionPair = sdk.items.find((pair) => YAML.isScalar(pair.key) && pair.key.value === "packageVersion");
    if (versionPair && YAML.isScalar(versionPair.value) && versionPair.value.range) {
      const scalar = versionPair.value;
      const [start, end] = scalar.range!;
      const quoted = scalar.type === "QUOTE_DOUBLE" ? `"${version}"` : scalar.type === "QUOTE_SINGLE" ? `'${version}'` : version;
      result = text.slice(0, start) + quoted + text.slice(end);
    } else if (versionPair) {
      throw new Error("x-sdk.packageVersion is not a plain value");
    } else {
      if (sdk.flow) throw new Error("x-sdk is a flow mapping: add `packageVersion` to it by hand");
      const first = sdk.items[0];
      const last = sdk.items.at(-1);
      if (!first || !YAML.isScalar(first.key) || !first.key.range || !last) throw new Error("x-sdk is empty: add `packageVersion` to it by hand");
      const keyStart = first.key.range[0];
      const indent = keyStart - text.lastIndexOf("\n", keyStart - 1) - 1;
      const lastNode = (last.value ?? last.key) as YAML.Node;
      const end = lastNode.range![1];
      const lineEnd = text.indexOf("\n", end - 1) === -1 ? text.length : text.indexOf("\n", end - 1);
      result = `${text.slice(0, lineEnd)}\n${" ".repeat(indent)}packageVersion: ${version}${text.slice(lineEnd)}`;
    }
  }
  // Nothing but the version may change.
  const before = YAML.parse(text);
  const after = YAML.parse(result);
  if (String(after?.["x-sdk"]?.packageVersion) !== version) throw new Error("could not set x-sdk.packageVersion");
  delete after["x-sdk"].packageVersion;
  if (before["x-sdk"]) delete before["x-sdk"].packageVersion;
  else if (Object.keys(after["x-sdk"]).length === 0) delete after["x-sdk"];
  if (!isDeepStrictEqual(before, after)) throw new Error("setting x-sdk.packageVersion would change more than the version; set it by hand");
  return result;
}
