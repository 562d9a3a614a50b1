/**
 * A schema with a function pair: every entry and every `$ref` target. Schemas written alike
 * (the same JSON text) share the pair of the first one: the issue-collecting function takes the
 * schema's pointer as a parameter.
 */
import type { Direction } from "../../common/read-write.ts";

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
  /**
   * The direction the schema is checked in, where that differs from checking it as written
   * (`common/read-write.ts`): its own `required`, and those of the schemas it reaches, leave out the
   * properties the direction hides. Undefined: as written.
   */
  view?: Direction;
}
