/**
 * TypeScript declarations as code fragments (`code.ts`): imports, exports, doc comments, type
 * aliases, interfaces, classes and methods, laid out the way TypeScript's formatter keeps them
 * (two-space indent; test/generator/formatted.test.ts holds every emitted module to it). Text
 * parts are `Code`, so contract text reaches them only as the code tag's string literals or
 * through the escaping helpers.
 */
import { docComment, propertyKey, propertyKeyForValue } from "../common/escape.ts";
import { Block, code, raw, type Code } from "./code.ts";

/** A property key of an object value: bare when an identifier, else quoted; `__proto__` computed. */
export function valueKey(name: string): Code {
  return raw(propertyKeyForValue(name));
}

/** A property key of an object type or interface: bare when an identifier, else quoted. */
export function typeKey(name: string): Code {
  return raw(propertyKey(name));
}

/** `import { a, b } from "./x.js";`, `import type …`, or `import * as X from …`. */
export interface ImportSpec {
  from: string;
  names?: readonly string[];
  namespace?: string;
  typeOnly?: boolean;
}

/** `export * from "./x.js";`, `export { a, b as c } from …`, `export type …`. */
export interface ExportSpec {
  from: string;
  /** Absent: every export (`*`). A pair is a name and the alias it is exported under. */
  names?: ReadonlyArray<string | readonly [string, string]>;
  typeOnly?: boolean;
}

/** Named imports of one module and kind merged into one statement, in the order first seen. */
export function mergeImports(specs: readonly ImportSpec[]): ImportSpec[] {
  const merged: ImportSpec[] = [];
  for (const spec of specs) {
    const same = spec.namespace === undefined ? merged.find((m) => m.namespace === undefined && m.from === spec.from && Boolean(m.typeOnly) === Boolean(spec.typeOnly)) : undefined;
    if (same === undefined) merged.push({ ...spec, names: spec.names === undefined ? undefined : [...spec.names] });
    else same.names = [...(same.names ?? []), ...(spec.names ?? []).filter((name) => !same.names?.includes(name))];
  }
  return merged;
}

export function importStatement(spec: ImportSpec): Code {
  const type = spec.typeOnly ? "type " : "";
  if (spec.namespace !== undefined) return code`import ${raw(type)}* as ${raw(spec.namespace)} from ${spec.from};`;
  return code`import ${raw(type)}{ ${raw((spec.names ?? []).join(", "))} } from ${spec.from};`;
}

export function exportStatement(spec: ExportSpec): Code {
  const type = spec.typeOnly ? "type " : "";
  if (spec.names === undefined) return code`export ${raw(type)}* from ${spec.from};`;
  const names = spec.names.map((entry) => (typeof entry === "string" ? entry : `${entry[0]} as ${entry[1]}`));
  return code`export ${raw(type)}{ ${raw(names.join(", "))} } from ${spec.from};`;
}

/**
 * A doc comment's lines for contract or generator text: one line for one-line text, else a block.
 * None for empty text.
 */
export function docLines(text: string | undefined): Code[] {
  const inner = docComment(text);
  if (inner === "") return [];
  if (!inner.includes("\n")) return [raw(`/** ${inner} */`)];
  return [raw("/**"), ...inner.split("\n").map((line) => raw(line === "" ? " *" : ` * ${line}`)), raw(" */")];
}

/** A declaration with its doc comment: `head`, then `body` one level in, then `}` (no body: `head` only). */
export function declaration(docs: string | undefined, head: Code, body?: Block): Block {
  const block = new Block().add(...docLines(docs));
  if (body === undefined) return block.add(head);
  // An empty body still opens and closes its braces.
  return body.isEmpty ? block.add(head, raw("}")) : block.wrap(head, body);
}

/** `export type Name<P> = type;` */
export function typeAlias(docs: string | undefined, name: string, type: Code, options: { exported?: boolean; parameters?: string } = {}): Block {
  const parameters = options.parameters === undefined ? "" : `<${options.parameters}>`;
  return declaration(docs, code`${raw(options.exported === false ? "" : "export ")}type ${raw(name)}${raw(parameters)} = ${type};`);
}

/** `export const NAME = value;` */
export function constant(docs: string | undefined, name: string, value: Code, options: { exported?: boolean; type?: Code } = {}): Block {
  const type = options.type === undefined ? raw("") : code`: ${options.type}`;
  return declaration(docs, code`${raw(options.exported === false ? "" : "export ")}const ${raw(name)}${type} = ${value};`);
}

export interface PropertySpec {
  docs?: string | undefined;
  /** Already a property key (`propertyKey`). */
  name: string;
  optional?: boolean;
  type: Code;
}

/** `export interface Name extends A { … }` */
export function interfaceDeclaration(docs: string | undefined, name: string, properties: readonly PropertySpec[], options: { extends?: string } = {}): Block {
  const body = new Block();
  for (const property of properties) body.add(...docLines(property.docs), code`${raw(property.name)}${raw(property.optional ? "?" : "")}: ${property.type};`);
  const heritage = options.extends === undefined ? "" : ` extends ${options.extends}`;
  return declaration(docs, code`export interface ${raw(name)}${raw(heritage)} {`, body);
}

export interface MethodSpec {
  docs?: string | undefined;
  /** `public `, `async `, or "" before the name. */
  modifiers?: string;
  name: string;
  typeParameters?: string;
  parameters: Code;
  /** The return type; none for a constructor. */
  returns?: Code;
  body: Block;
}

/** A method of a class body. */
export function method(spec: MethodSpec): Block {
  const typeParameters = spec.typeParameters === undefined ? "" : `<${spec.typeParameters}>`;
  const returns = spec.returns === undefined ? raw("") : code`: ${spec.returns}`;
  return declaration(spec.docs, code`${raw(spec.modifiers ?? "")}${raw(spec.name)}${raw(typeParameters)}(${spec.parameters})${returns} {`, spec.body);
}

/** Class members, a blank line between each two. */
export function members(list: readonly Block[]): Block {
  const body = new Block();
  list.forEach((member, index) => {
    if (index > 0) body.add(raw(""));
    body.append(member);
  });
  return body;
}

/**
 * A module's text from groups of statements: one blank line between groups (never two, none at
 * the start or the end), each statement's lines as its block lays them out; ends with a newline.
 */
export function moduleText(groups: ReadonlyArray<ReadonlyArray<Block | Code>>): string {
  const lines: string[] = [];
  for (const group of groups) {
    const groupLines = group.flatMap((statement) => (statement instanceof Block ? statement.indented(0) : statement.text.split("\n")));
    if (groupLines.length === 0) continue;
    if (lines.length > 0) lines.push("");
    // A loop, not push(...groupLines): a large API's client has more lines than a call takes arguments.
    for (const line of groupLines) lines.push(line);
  }
  return `${lines.join("\n")}\n`;
}
