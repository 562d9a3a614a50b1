/**
 * Every keyword the validators check, one definition per family (keywords/), in the order their
 * code is emitted: the assertion vocabulary, the audit's checks and walk (audit.ts) and the code
 * of a schema (schema.ts) all come from this list.
 */
import type { KeywordDefinition, VocabularyEntry, WrappingDefinition } from "./keyword-definition.ts";
import { allOf, anyOf, not, oneOf } from "./keywords/applicator.ts";
import { items, itemCounts, uniqueItems } from "./keywords/array.ts";
import { dependentSchemas, ifThenElse } from "./keywords/conditional.ts";
import { contains } from "./keywords/contains.ts";
import { constKeyword, enumKeyword } from "./keywords/enum-const.ts";
import { format } from "./keywords/format.ts";
import { bounds, multipleOf } from "./keywords/number.ts";
import { dependentRequired, properties, propertyCounts } from "./keywords/object.ts";
import { ref } from "./keywords/ref.ts";
import { pattern, stringLength } from "./keywords/string.ts";
import { typeKeyword } from "./keywords/type.ts";
import { unevaluatedItems, unevaluatedProperties } from "./keywords/unevaluated.ts";

/** `type`: its check goes around the code of all the others. */
export const TYPE: WrappingDefinition = typeKeyword;

/**
 * The other families, in emission order. Each run of one group goes behind one guard of its type,
 * so the families of one type stay together. `enum` and `const` come last: TypeScript narrows the
 * value after `if (v !== "a") return false;`, so nothing may follow them.
 */
export const KEYWORDS: readonly KeywordDefinition[] = [
  bounds,
  multipleOf,
  stringLength,
  pattern,
  format,
  itemCounts,
  uniqueItems,
  items,
  contains,
  unevaluatedItems,
  properties,
  propertyCounts,
  dependentRequired,
  dependentSchemas,
  unevaluatedProperties,
  ref,
  allOf,
  anyOf,
  oneOf,
  not,
  ifThenElse,
  enumKeyword,
  constKeyword,
];

/** Every definition, `type` first. */
export const VOCABULARY: readonly VocabularyEntry[] = [TYPE, ...KEYWORDS];

/** Keywords the generated validators check. */
export const ASSERTION_KEYWORDS: ReadonlySet<string> = new Set(VOCABULARY.flatMap((entry) => entry.keywords));
