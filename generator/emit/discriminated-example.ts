/**
 * The package README's example of a discriminated union, from the contract's first component
 * schema whose discriminator selects its branches exactly and fails a missing or unknown value by
 * itself ("closed", validators/discriminator.ts): narrowing on the property after the guard, and
 * the issue an unknown value gets. Contract text reaches the code only as string literals.
 */
import { Warnings } from "../common/warnings.ts";
import { pointer } from "../common/json-pointer.ts";
import { propertyKey, stringLiteral } from "../common/escape.ts";
import { Discriminators } from "./validators/discriminator.ts";
import { ASSERTION_KEYWORDS } from "./validators/keyword-registry.ts";
import { RefResolver } from "./validators/resolve.ts";
import { isIdentifierName } from "./validators/property-access.ts";
import type { ValidatorNames } from "./validators/validator-names.ts";

export interface DiscriminatedExample {
  /** The schema's name in the contract. */
  schema: string;
  property: string;
  /** The example's TypeScript. */
  code: string;
}

export function discriminatedExample(document: unknown, names: ValidatorNames, validatorsEntry: string): DiscriminatedExample | undefined {
  const schemas = (document as { components?: { schemas?: Record<string, unknown> } }).components?.schemas;
  if (typeof schemas !== "object" || schemas === null || !JSON.stringify(schemas).includes('"discriminator"')) return undefined;
  // The validators' compilation has told the document's discriminator warnings already.
  const discriminators = new Discriminators(document, new RefResolver(document), new Warnings(), ASSERTION_KEYWORDS);
  for (const [name, stem] of names.schemas) {
    const schema = schemas[name];
    if (typeof schema !== "object" || schema === null || Array.isArray(schema)) continue;
    const found = discriminators.of(schema as Record<string, unknown>, pointer("components", "schemas", name));
    const first = found?.cases[0];
    const exact = found !== undefined && found.closed && found.cases.every((c) => c.exact);
    if (found === undefined || first === undefined || !exact || !/^[A-Za-z_$][\w$]*$/.test(stem)) continue;
    const values = new Set(found.cases.map((c) => c.value));
    let unknown = "unknown";
    while (values.has(unknown)) unknown += "-value";
    const access = isIdentifierName(found.property) ? `.${found.property}` : `[${stringLiteral(found.property)}]`;
    const code = [
      `import { is${stem}, validate${stem} } from ${stringLiteral(validatorsEntry)};`,
      "",
      `const value: unknown = { ${propertyKey(found.property)}: ${stringLiteral(first.value)} };`,
      `if (is${stem}(value) && value${access} === ${stringLiteral(first.value)}) {`,
      "  console.log(value); // typed as the branch that value selects",
      "}",
      `console.log(validate${stem}({ ${propertyKey(found.property)}: ${stringLiteral(unknown)} })[0]?.message); // names the values that select a branch`,
    ].join("\n");
    return { schema: name, property: found.property, code };
  }
  return undefined;
}
