/**
 * A schema with a function pair: every entry and every `$ref` target. Schemas written alike
 * (the same JSON text) share the pair of the first one: the issue-collecting function takes the
 * schema's pointer as a parameter.
 */
export interface Unit {
  /** JSON pointer of the schema in the document. */
  pointer: string;
  schema: unknown;
  stem: string;
  /** Name of the boolean function. */
  check: string;
  /** Name of the issue-collecting function. */
  collect: string;
  /** The unit whose functions these are: itself, or the first unit of the same schema text. */
  functions: Unit;
}
