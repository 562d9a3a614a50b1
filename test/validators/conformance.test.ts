/**
 * JSON-Schema-Test-Suite (draft 2020-12), read in place from ../shared/suites. Every group's
 * schema becomes a module (schema as the document, entry pointer ""), run on every case:
 * `isX(data) === valid` and `validateX(data).length === 0` iff valid.
 *
 * A group either passes every case or is refused at generation time (ContractError); nothing in
 * between is tolerated except the cases listed below with a reason. The lists are exact: a listed
 * case that starts passing, or a listed group that stops being refused, fails the test too.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { emitValidators } from "../../generator/emit/validators/modules.ts";
import { ContractError } from "../../generator/common/errors.ts";
import { loadValidators } from "./support.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SUITE = path.resolve(repoRoot, "../shared/suites/json-schema-test-suite/tests/draft2020-12");

interface Case {
  description: string;
  data: unknown;
  valid: boolean;
}
interface Group {
  description: string;
  schema: unknown;
  tests: Case[];
}

/** Files about features the emitter refuses: every group must be refused (or, if it avoids the feature, pass). */
const REFUSED_FILES: Record<string, string> = {
  "dynamicRef.json": "the groups within one schema resource pass; the others need nested $id, relative or remote refs (refused): test/generator/dynamic-refs.test.ts says which",
  "refRemote.json": "remote $refs (the suite serves them at http://localhost:1234) are refused: only internal refs",
  "vocabulary.json": "$vocabulary and custom metaschemas are refused",
  "optional/cross-draft.json": "refs to other drafts' remote schemas are refused",
  "optional/dependencies-compatibility.json": "draft-07 `dependencies` is refused (use dependentRequired/dependentSchemas)",
  "optional/dynamicRef.json": "its one group needs nested $id (relative refs against it)",
  "optional/format-assertion.json": "custom metaschemas ($schema other than 2020-12) are refused",
  "optional/id.json": "remote $ref to an $id is refused",
};
const UNSUPPORTED_FORMATS = [
  "duration", "ecmascript-regex", "hostname", "idn-email", "idn-hostname", "ipv4", "ipv6", "iri-reference", "iri",
  "json-pointer", "regex", "relative-json-pointer", "time", "unknown", "uri-template",
];
for (const format of UNSUPPORTED_FORMATS) {
  REFUSED_FILES[`optional/format/${format}.json`] =
    `format "${format}" is not checked (only date-time, date, uri, uri-reference, uuid, email are): these files expect format assertion, so they run with unknownFormats: "error"`;
}
/** Files whose formats must be asserted: an unknown one is refused rather than passed as an annotation. */
const ASSERTS_FORMATS = (file: string) => file.startsWith("optional/format/");

/** Groups refused in otherwise supported files. */
const REFUSED_GROUPS: Record<string, Record<string, string>> = {
  "anchor.json": {
    "Location-independent identifier with absolute URI": "$ref with an absolute URI (other than the root $id) is refused",
    "Location-independent identifier with base URI change in subschema": "nested $id (base URI change) is refused",
    "same $anchor with different base uri": "relative-URI $ref (needs nested $id resolution) is refused",
  },
  "defs.json": {
    "validate definition against metaschema": "remote $ref to the 2020-12 metaschema is refused",
  },
  "optional/unknownKeyword.json": {
    "$id inside an unknown keyword is not a real identifier": "the $defs beside the unknown keyword hold nested $ids, which are refused",
  },
  "unevaluatedItems.json": {
    "unevaluatedItems with $dynamicRef": "the group needs nested $id (a relative $ref against it)",
  },
  "unevaluatedProperties.json": {
    "unevaluatedProperties with $dynamicRef": "the group needs nested $id (a relative $ref against it)",
  },
  "ref.json": {
    "remote ref, containing refs itself": "remote $ref to the 2020-12 metaschema is refused",
    "Recursive references between schemas": "relative-URI $refs against nested $id are refused",
    "refs with relative uris and defs": "nested $id is refused",
    "relative refs with absolute uris and defs": "nested $id is refused",
    "$id must be resolved against nearest parent, not just immediate parent": "absolute-URI $ref into nested $id is refused",
    "order of evaluation: $id and $ref": "relative-URI $ref against the root $id is refused",
    "order of evaluation: $id and $anchor and $ref": "the anchor is declared twice (under different nested $ids): ambiguous, refused",
    "order of evaluation: $id and $ref on nested schema": "relative-URI $ref is refused",
    "URN ref with nested pointer ref": "$ref to a nested $id is refused",
    "ref to if": "$ref to a nested $id is refused",
    "ref to then": "$ref to a nested $id is refused",
    "ref to else": "$ref to a nested $id is refused",
    "ref with absolute-path-reference": "absolute-path $ref against nested $ids is refused",
  },
};

/** Cases whose expected result the emitter deliberately does not give. */
const EXPECTED_FAILURES: Record<string, Record<string, Record<string, string>>> = {
  "format.json": Object.fromEntries(
    ["email", "date", "date-time", "uri", "uri-reference", "uuid"].map((format) => [
      `${format} format`,
      {
        [`invalid ${format} string is only an annotation by default`]:
          "by design the generated validators assert the formats they support (the suite's default treats format as an annotation)",
      },
    ]),
  ),
};

function suiteFiles(): string[] {
  const list = (sub: string) =>
    fs
      .readdirSync(path.join(SUITE, sub))
      .filter((name) => name.endsWith(".json"))
      .map((name) => (sub === "" ? name : `${sub}/${name}`))
      .sort();
  return [...list(""), ...list("optional"), ...list("optional/format")];
}

interface Row {
  file: string;
  passed: number;
  failed: number;
  excused: number;
  refused: number;
}
const table: Row[] = [];

afterAll(() => {
  const total = table.reduce((sum, row) => ({ ...sum, passed: sum.passed + row.passed, failed: sum.failed + row.failed, excused: sum.excused + row.excused, refused: sum.refused + row.refused }), {
    file: "TOTAL",
    passed: 0,
    failed: 0,
    excused: 0,
    refused: 0,
  });
  console.log("JSON-Schema-Test-Suite draft2020-12 (cases): passed / failed / failed-as-listed / in refused groups");
  console.table([...table, total]);
});

describe("JSON-Schema-Test-Suite draft 2020-12", () => {
  it("is present", () => {
    expect(fs.existsSync(SUITE), `${SUITE} is missing`).toBe(true);
  });

  for (const file of suiteFiles()) {
    it(file, () => {
      const groups = JSON.parse(fs.readFileSync(path.join(SUITE, file), "utf8")) as Group[];
      const row: Row = { file, passed: 0, failed: 0, excused: 0, refused: 0 };
      table.push(row);
      const problems: string[] = [];
      const refusedFile = REFUSED_FILES[file];
      for (const group of groups) {
        const refusalReason = REFUSED_GROUPS[file]?.[group.description];
        let module: ReturnType<typeof loadValidators>;
        try {
          module = loadValidators(emitValidators({ document: group.schema as object, entries: [{ name: "X", pointer: "" }], unknownFormats: ASSERTS_FORMATS(file) ? "error" : "warn" }));
        } catch (error) {
          if (!(error instanceof ContractError)) throw error;
          row.refused += group.tests.length;
          if (refusedFile === undefined && refusalReason === undefined) problems.push(`refused but not listed: ${group.description}: ${error.message}`);
          continue;
        }
        if (refusalReason !== undefined) problems.push(`listed as refused but generated: ${group.description}`);
        for (const test of group.tests) {
          const guard = module["isX"]?.(test.data) as boolean;
          const issues = module["validateX"]?.(test.data) as unknown[];
          const agrees = guard === test.valid && (issues.length === 0) === test.valid;
          const excuse = EXPECTED_FAILURES[file]?.[group.description]?.[test.description];
          if (agrees) {
            row.passed++;
            if (excuse !== undefined) problems.push(`listed as failing but passes: ${group.description} / ${test.description}`);
          } else if (excuse !== undefined) {
            row.excused++;
          } else {
            row.failed++;
            problems.push(
              `${group.description} / ${test.description}: data ${JSON.stringify(test.data)} expected ${test.valid}, isX ${guard}, validateX ${JSON.stringify(issues)}`,
            );
          }
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
