import vm from "node:vm";
import Handlebars from "handlebars";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import {
  assertNoTripleStash,
  docComment,
  identifier,
  jsDoc,
  jsonLiteral,
  propertyKey,
  propertyKeyForValue,
  registerHandlebarsHelpers,
  stringLiteral,
  uniqueIdentifiers,
} from "../../generator/common/escape.ts";

describe("docComment", () => {
  it.each([
    { given: undefined, want: "" },
    { given: "  \n\n", want: "" },
    { given: "Lists pods.", want: "Lists pods." },
    { given: "ends */ here", want: "ends *\\/ here" },
    { given: "a **/ b */*/", want: "a **\\/ b *\\/*\\/" },
    { given: "*\u0000/ rejoined", want: "*\\/ rejoined" },
    { given: "one\r\ntwo\rthree\u2028four\u2029five", want: "one\ntwo\nthree\nfour\nfive" },
    { given: "\n\nkeeps\n\ninner blank   \n\n", want: "keeps\n\ninner blank" },
    { given: "bell\u0007 esc\u001b tab\tkept", want: "bell esc tab\tkept" },
    { given: "rtl\u202Eoverride\u2066isolate", want: "rtloverrideisolate" },
  ])("docComment($given) is $want", ({ given, want }) => {
    expect(docComment(given)).toBe(want);
  });

  it.each([
    { given: { text: undefined, indent: "" }, want: "" },
    { given: { text: "One line", indent: "" }, want: "/**\n * One line\n */" },
    { given: { text: "A\n\nB */", indent: "  " }, want: "/**\n   * A\n   *\n   * B *\\/\n   */" },
  ])("jsDoc($given.text)", ({ given, want }) => {
    expect(jsDoc(given.text, given.indent)).toBe(want);
  });
});

describe("stringLiteral", () => {
  it.each([
    { given: "plain", want: '"plain"' },
    { given: 'say "hi"', want: '"say \\"hi\\""' },
    { given: "back\\slash", want: '"back\\\\slash"' },
    { given: "`${x}`", want: '"`${x}`"' },
    { given: "line\nbreak", want: '"line\\nbreak"' },
    { given: "\u2028\u2029", want: '"\\u2028\\u2029"' },
    { given: "\u202Ertl", want: '"\\u202ertl"' },
    { given: "\ud800", want: '"\\ud800"' },
  ])("stringLiteral($given) is $want", ({ given, want }) => {
    expect(stringLiteral(given)).toBe(want);
  });

  it("jsonLiteral indents and escapes line separators", () => {
    expect(jsonLiteral({ a: ["\u2028"] })).toBe('{\n  "a": [\n    "\\u2028"\n  ]\n}');
    expect(() => jsonLiteral(undefined)).toThrow(TypeError);
  });
});

describe("property keys", () => {
  it.each([
    { given: "podId", want: { type: "podId", value: "podId" } },
    { given: "$ref", want: { type: "$ref", value: "$ref" } },
    { given: "delete", want: { type: "delete", value: "delete" } },
    { given: "odd-key", want: { type: '"odd-key"', value: '"odd-key"' } },
    { given: "1abc", want: { type: '"1abc"', value: '"1abc"' } },
    { given: "", want: { type: '""', value: '""' } },
    { given: "café", want: { type: '"café"', value: '"café"' } },
    { given: "__proto__", want: { type: '"__proto__"', value: '["__proto__"]' } },
  ])("propertyKey($given)", ({ given, want }) => {
    expect(propertyKey(given)).toBe(want.type);
    expect(propertyKeyForValue(given)).toBe(want.value);
  });
});

describe("identifier", () => {
  it.each([
    { given: "listPods", want: { plain: "listPods", camel: "listPods", pascal: "ListPods" } },
    { given: "pod_id", want: { plain: "pod_id", camel: "podId", pascal: "PodId" } },
    { given: "X-Request-ID", want: { plain: "X_Request_ID", camel: "xRequestID", pascal: "XRequestID" } },
    { given: "HTTPServer", want: { plain: "HTTPServer", camel: "httpServer", pascal: "HTTPServer" } },
    { given: "GET /pods/{podId}", want: { plain: "GET_pods_podId", camel: "getPodsPodId", pascal: "GETPodsPodId" } },
    { given: "1abc", want: { plain: "_1abc", camel: "_1abc", pascal: "_1abc" } },
    { given: "a-b", want: { plain: "a_b", camel: "aB", pascal: "AB" } },
    { given: "delete", want: { plain: "delete_", camel: "delete_", pascal: "Delete" } },
    { given: "class", want: { plain: "class_", camel: "class_", pascal: "Class" } },
    { given: "default", want: { plain: "default_", camel: "default_", pascal: "Default" } },
    { given: "type", want: { plain: "type_", camel: "type_", pascal: "Type" } },
    { given: "string", want: { plain: "string_", camel: "string_", pascal: "String" } },
    { given: "__proto__", want: { plain: "__proto__", camel: "proto", pascal: "Proto" } },
    { given: "$ref", want: { plain: "$ref", camel: "ref", pascal: "Ref" } },
    { given: "", want: { plain: "_", camel: "_", pascal: "_" } },
    { given: "🚀 —", want: { plain: "_", camel: "_", pascal: "_" } },
    { given: "*/ process.exit(1) /*", want: { plain: "process_exit_1", camel: "processExit1", pascal: "ProcessExit1" } },
  ])("identifier($given)", ({ given, want }) => {
    expect({
      plain: identifier(given),
      camel: identifier(given, { case: "camel" }),
      pascal: identifier(given, { case: "pascal" }),
    }).toEqual(want);
  });

  it.each([
    { given: { names: ["pod", "Pod", "pod"], taken: [] }, want: ["pod", "pod2", "pod3"] },
    { given: { names: ["pod", "pod", "pod2"], taken: [] }, want: ["pod", "pod3", "pod2"] },
    { given: { names: ["v1", "v-1"], taken: [] }, want: ["v1", "v1_2"] },
    { given: { names: ["client", "other"], taken: ["client"] }, want: ["client2", "other"] },
  ])("uniqueIdentifiers($given.names)", ({ given, want }) => {
    expect(uniqueIdentifiers(given.names, { case: "camel", taken: given.taken })).toEqual(want);
  });
});

describe("Handlebars helpers", () => {
  const hb = Handlebars.create();
  registerHandlebarsHelpers(hb);
  const render = (template: string, data: unknown) => hb.compile(template, { strict: true })(data);

  it.each([
    { given: { template: "{{doc d indent=2}}", data: { d: "x */" } }, want: "/**\n   * x *\\/\n   */" },
    { given: { template: "{{doc d}}", data: { d: undefined } }, want: "" },
    { given: { template: "{{str s}}", data: { s: `a"<b>&'` } }, want: `"a\\"<b>&'"` },
    { given: { template: "{{key k}}: {{valueKey k}}", data: { k: "__proto__" } }, want: '"__proto__": ["__proto__"]' },
    { given: { template: '{{ident n case="pascal"}}', data: { n: "list-pods" } }, want: "ListPods" },
    { given: { template: "{{json j}}", data: { j: { a: "<&>" } } }, want: '{\n  "a": "<&>"\n}' },
  ])("renders $given.template without HTML escaping", ({ given, want }) => {
    expect(render(given.template, given.data)).toBe(want);
  });

  it.each(["{{str}}", "{{str n}}", '{{ident s case="snake"}}', "{{doc s indent=-1}}", "{{json}}"])(
    "refuses the misuse %s",
    (template) => {
      expect(() => render(template, { n: 1, s: "x" })).toThrow(TypeError);
    },
  );

  it.each([
    { given: "a {{{raw}}} b", want: /t\.hbs:1:3: "\{\{\{"/ },
    { given: "line\n  {{~{raw}~}}", want: /t\.hbs:2:3/ },
    { given: "{{& raw}}", want: /t\.hbs:1:1: "\{\{&"/ },
  ])("assertNoTripleStash refuses $given", ({ given, want }) => {
    expect(() => assertNoTripleStash(given, "t.hbs")).toThrow(want);
  });

  it("assertNoTripleStash accepts escaped mustaches", () => {
    expect(() => assertNoTripleStash("{{str a}} {{#each x}}{{key this}}{{/each}}", "t.hbs")).not.toThrow();
  });
});

// Each payload tries to run `globalThis.injected = true` from wherever it lands.
const HOSTILE = [
  "*/",
  "/*",
  "\n",
  "\r\n",
  '"',
  "'",
  "`",
  "${x}",
  "\u2028",
  "\u2029",
  "</script>",
  "\\",
  "__proto__",
  "constructor",
  "delete",
  "class",
  "1abc",
  "a-b",
  "",
  "🚀",
  "*/ process.exit(1) /*",
  "*/ globalThis.injected = true; /*",
  '"; globalThis.injected = true; "',
  "'; globalThis.injected = true; '",
  "`; globalThis.injected = true; `",
  "${globalThis.injected = true}",
  "\\\"; globalThis.injected = true; //",
  "\u2028globalThis.injected = true; //",
  "x\n globalThis.injected = true; //",
  "x*\u0000/ globalThis.injected = true; /*",
];

/** One module per hostile input, built with every escaper, exporting what it should have kept intact. */
function moduleFromFunctions(hostile: string): string {
  return [
    jsDoc(hostile),
    `export interface ${identifier(hostile, { case: "pascal" })} {`,
    `  ${jsDoc(hostile, "  ")}`,
    `  ${propertyKey(hostile)}: string;`,
    "}",
    `export const ${identifier(hostile, { case: "camel" })}: ${identifier(hostile, { case: "pascal" })} = {`,
    `  ${propertyKeyForValue(hostile)}: ${stringLiteral(hostile)},`,
    "};",
    `export const value = ${identifier(hostile, { case: "camel" })};`,
    `export const text = ${stringLiteral(hostile)};`,
    `export const json = ${jsonLiteral({ hostile })};`,
    `export const plain = (() => { function ${identifier(hostile)}(): void {} return ${identifier(hostile)}.name; })();`,
  ].join("\n");
}

const TEMPLATE = `{{doc h}}
export interface {{ident h case="pascal"}} {
  {{doc h indent=2}}
  {{key h}}: string;
}
export const {{ident h case="camel"}}: {{ident h case="pascal"}} = {
  {{valueKey h}}: {{str h}},
};
export const value = {{ident h case="camel"}};
export const text = {{str h}};
export const json = {{json obj}};
export const plain = (() => { function {{ident h}}(): void {} return {{ident h}}.name; })();
`;

function moduleFromTemplate(hostile: string): string {
  assertNoTripleStash(TEMPLATE, "hostile.hbs");
  const hb = Handlebars.create();
  registerHandlebarsHelpers(hb);
  return hb.compile(TEMPLATE, { strict: true })({ h: hostile, obj: { hostile } });
}

/** Type-checks the modules together in memory, strict, against the ES2022 library only. */
function diagnosticsOf(modules: Map<string, string>): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noUncheckedIndexedAccess: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    lib: ["lib.es2022.d.ts"],
    types: [],
    noEmit: true,
  };
  const host = ts.createCompilerHost(options);
  const readLibrary = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError) => {
    const source = modules.get(fileName);
    return source === undefined
      ? readLibrary(fileName, languageVersion, onError)
      : ts.createSourceFile(fileName, source, languageVersion, true);
  };
  const program = ts.createProgram([...modules.keys()], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}

/** Runs a module in a fresh context; a payload that escaped would set `injected` or touch `process`. */
function run(source: string): { context: Record<string, unknown>; exports: Record<string, unknown> } {
  const js = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const exports: Record<string, unknown> = {};
  const context: Record<string, unknown> = { exports };
  vm.runInNewContext(js, context);
  return { context, exports };
}

describe.each([
  { builder: "the escape functions", build: moduleFromFunctions },
  { builder: "the Handlebars helpers", build: moduleFromTemplate },
])("hostile contract text through $builder", ({ build }) => {
  const modules = new Map(HOSTILE.map((hostile, index) => [`/virtual/hostile-${index}.ts`, build(hostile)]));

  it("compiles with zero diagnostics", () => {
    expect(diagnosticsOf(modules)).toEqual([]);
  });

  it.each(HOSTILE.map((hostile, index) => ({ hostile, index })))(
    "runs no injected code and keeps $hostile intact",
    ({ hostile, index }) => {
      const { context, exports } = run(modules.get(`/virtual/hostile-${index}.ts`) ?? "");
      expect(context["injected"]).toBeUndefined();
      expect(exports["text"]).toBe(hostile);
      expect(exports["json"]).toEqual({ hostile });
      const value = exports["value"] as object;
      expect(Object.getPrototypeOf(value)).toBe(Object.getPrototypeOf(exports["json"]));
      expect(Object.getOwnPropertyDescriptor(value, hostile)?.value).toBe(hostile);
      expect(exports["plain"]).toBe(identifier(hostile));
    },
  );
});
