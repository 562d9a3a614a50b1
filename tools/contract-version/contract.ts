/**
 * What the tool takes from the generator's reading of the contract: the package version declared in
 * `x-sdk` (with the semver pattern it is checked against). `$ref`s are followed by the load stage's
 * `LoadedContract.deref`, the generator's one resolver.
 */
export { packageVersion, SEMVER } from "../../generator/model/x-sdk.ts";

/** A node of the parsed contract: YAML as parsed, not typed further. */
export type Json = any;
