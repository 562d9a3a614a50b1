/**
 * openapi-typescript writes `allOf: [{$ref}, {required: [...]}]` as `WithRequired<T, K>`, declared
 * with `K extends keyof T`: a type that may be `null` (a nullable component, as Plaid's) has no
 * keys, nor has a union whose members do not all declare the property, so its own declaration fails
 * to type-check there. This one asks the same of each member of the union, keeps `null` out (an
 * object is required), and types the property `unknown` in a member that does not declare it.
 */
const ITS_DECLARATION = "type WithRequired<T, K extends keyof T> = T & {\n    [P in K]-?: T[P];\n};";
const DECLARATION = "type WithRequired<T, K extends PropertyKey> = T extends null | undefined ? never : T & {\n    [P in K]-?: P extends keyof T ? T[P] : unknown;\n};";

/** The module's text with its `WithRequired` declaration, if any, replaced by the one above. */
export function widenWithRequired(text: string): string {
  return text.replace(ITS_DECLARATION, DECLARATION);
}
