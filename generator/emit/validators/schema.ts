/**
 * The code of one (sub)schema: the keyword families in registry order (keyword-registry.ts),
 * each run of families that apply to one type behind a guard of that type unless `type` settles
 * it, all inside the `type` check.
 */
import { ContractError } from "../../common/errors.ts";
import { Block, code, type Code } from "../code.ts";
import type { Ctx } from "./context.ts";
import { failAlways } from "./failures.ts";
import type { KeywordDefinition, KeywordGroup } from "./keyword-definition.ts";
import { ASSERTION_KEYWORDS, KEYWORDS, TYPE } from "./keyword-registry.ts";
import { typeList, type TypeName } from "./keyword-values.ts";
import { typeGuard } from "./keywords/type.ts";
import { falseSchemaMessage } from "./messages.ts";
import { isObject } from "./schema-object.ts";

/** The types each group's keywords apply to (numbers: integers included). */
const GROUP_TYPES: Record<Exclude<KeywordGroup, "any">, readonly TypeName[]> = {
  number: ["number", "integer"],
  string: ["string"],
  array: ["array"],
  object: ["object"],
};

/** The registry cut into runs of one group, in order. */
const RUNS: ReadonlyArray<{ group: KeywordGroup; definitions: KeywordDefinition[] }> = KEYWORDS.reduce(
  (runs, definition) => {
    const last = runs.at(-1);
    if (last?.group === definition.group) last.definitions.push(definition);
    else runs.push({ group: definition.group, definitions: [definition] });
    return runs;
  },
  [] as Array<{ group: KeywordGroup; definitions: KeywordDefinition[] }>,
);

export function schemaCode(schema: unknown, at: string, ctx: Ctx): Block {
  if (schema === true) return new Block();
  if (schema === false) {
    const b = new Block();
    failAlways(b, ctx, "false schema", falseSchemaMessage, at);
    return b;
  }
  if (!isObject(schema)) throw new ContractError(at, "a schema must be an object or a boolean");
  const types = typeList(schema, at);
  const known = types === undefined ? undefined : new Set<TypeName>(types);
  const rest = new Block();
  for (const { group, definitions } of RUNS) {
    const emit = (b: Block) => {
      for (const definition of definitions) definition.emit(schema, at, ctx, b, known);
    };
    if (group === "any") emit(rest);
    else guarded(rest, known, GROUP_TYPES[group], typeGuard(group, ctx.v), emit);
  }
  return TYPE.wrap(types, at, ctx, rest);
}

/**
 * A subschema applied to the same value (allOf, anyOf, oneOf, not, if/then/else,
 * dependentSchemas) reads it through a fresh `any` alias: TypeScript narrows `v` after
 * `if (typeof v !== "string") return false;` (or inside the `else` of a type check), and the
 * subschema's object checks would then meet `never`.
 */
export function sameValueCode(schema: unknown, at: string, ctx: Ctx): Block {
  // A plain `$ref` only passes the value to a function: nothing to narrow.
  const refOnly = isObject(schema) && Object.keys(schema).every((keyword) => keyword === "$ref" || keyword === "$dynamicRef" || !ASSERTION_KEYWORDS.has(keyword));
  if (typeof schema === "boolean" || refOnly) return schemaCode(schema, at, ctx);
  const alias = ctx.scope.local("v");
  const inner = schemaCode(schema, at, { ...ctx, v: alias });
  if (!inner.uses(alias)) return inner;
  return new Block().add(code`const ${alias} = ${ctx.v};`).append(inner);
}

/**
 * Keywords that apply to some types only: skipped when the declared type rules them out, run
 * without a guard when it guarantees them, guarded otherwise.
 */
function guarded(b: Block, known: ReadonlySet<TypeName> | undefined, applies: readonly TypeName[], guard: Code, emit: (block: Block) => void): void {
  if (known !== undefined && !applies.some((t) => known.has(t))) return;
  const g = new Block();
  emit(g);
  if (g.isEmpty) return;
  const guaranteed = known !== undefined && [...known].every((t) => applies.includes(t));
  if (guaranteed) b.append(g);
  else b.wrap(code`if (${guard}) {`, g);
}
