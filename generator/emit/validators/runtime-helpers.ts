/**
 * The names generated code may use from `templates/runtime/validation.ts` and, for the format
 * checks, `templates/runtime/formats.ts`: a module imports the ones its kept code references
 * (fragments carry their names, see code.ts), values first, then types, each in this order.
 */
import { name, type Code } from "../code.ts";

export const RUNTIME_VALUES = [
  "addIssue",
  "checkParameters",
  "checkString",
  "cloneJson",
  "collapseIssues",
  "collectParameters",
  "collectString",
  "countProperties",
  "decimalMultiple",
  "deepEqual",
  "discriminatorIssue",
  "duplicatePair",
  "escapeSegment",
  "issuesOf",
  "own",
  "parameterIssues",
  "selectBranch",
  "selectedBranchIssue",
  "setOwn",
  "ucs2length",
] as const;
/** The format checks, in `formats.ts`: a module of their own, so apps whose startup code checks no format do not bundle them. */
export const FORMAT_VALUES = ["validDate", "validDateTime", "validEmail", "validUri", "validUriReference", "validUuid"] as const;
export const RUNTIME_TYPES = ["DefaultsInput", "ParameterTable", "ValidationIssue"] as const;

export type RuntimeValue = (typeof RUNTIME_VALUES)[number] | (typeof FORMAT_VALUES)[number];
export type RuntimeType = (typeof RUNTIME_TYPES)[number];

/** A runtime helper or type, as a name generated code references. */
export function runtime(helper: RuntimeValue | RuntimeType): Code {
  return name(helper);
}
