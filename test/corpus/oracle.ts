/**
 * ajv (Ajv2020, dev-only) as the oracle for a document's examples: the whole loaded document is
 * one schema, and each example is validated against the subschema at its pointer, so `$ref`s
 * resolve as the generator resolves them. ajv asserts exactly the formats the generated
 * validators assert (the generator's FORMAT_CHECKERS), with ajv-formats' checks; every other
 * format is an annotation for both.
 *
 * A request body's and a success response's examples are judged in their direction (`inDirection`):
 * OpenAPI's `readOnly`/`writeOnly` take names out of `required` there, which JSON Schema's ajv does
 * not know.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { FORMAT_CHECKERS } from "../../generator/emit/validators/vocabulary.ts";
import { ReadWriteMarks, type Direction } from "../../generator/common/read-write.ts";
import { forEachSchema } from "../../generator/common/schema-walk.ts";

const DOCUMENT_ID = "urn:corpus:document";

export type OracleVerdict = boolean | { error: string };

/** A copy of the document whose `required` lists leave out the properties `direction` hides; the document itself when it marks none. */
export function inDirection(document: object, direction: Direction): object {
  const marks = ReadWriteMarks.of(document);
  if (marks === undefined) return document;
  const copy = structuredClone(document);
  const changes: [Record<string, unknown>, string[]][] = [];
  forEachSchema(copy, (node) => {
    const hidden = marks.hiddenRequired(node, direction);
    if (hidden.length > 0) changes.push([node, hidden]);
  });
  // The marks were read from the original; the copy's required lists are changed after the walk.
  for (const [node, hidden] of changes) node["required"] = (node["required"] as string[]).filter((name) => !hidden.includes(name));
  return copy;
}

export function documentOracle(document: object): (schemaPointer: string, value: unknown) => OracleVerdict {
  const ajv = new Ajv2020({ strict: false, logger: false, validateSchema: false, allErrors: false });
  addFormats.default(ajv, [...FORMAT_CHECKERS.keys()] as never);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  return (schemaPointer, value) => {
    try {
      const validate = ajv.getSchema(`${DOCUMENT_ID}#${schemaPointer.split("/").map(encodeURIComponent).join("/")}`);
      if (!validate) return { error: `ajv found no schema at ${schemaPointer}` };
      return validate(value) as boolean;
    } catch (error) {
      return { error: String((error as Error).message).split("\n")[0]! };
    }
  };
}
