/**
 * Declarations given as ts-morph structures, printed as text laid out the way ts-morph prints them
 * and TypeScript's formatter keeps them (two-space indent; test/generator/formatted.test.ts holds
 * the output to the formatter). For a module that grows with the contract: ts-morph parses what it
 * prints, and on a contract of 11,000 operations that parse costs seconds and a gigabyte.
 *
 * Only the structures and members `src/client.ts` uses are known; any other member throws, so a
 * new use fails its first test instead of being dropped from the output.
 */
import type {
  ClassDeclarationStructure,
  ConstructorDeclarationStructure,
  ImportDeclarationStructure,
  InterfaceDeclarationStructure,
  MethodDeclarationStructure,
  OptionalKind,
  ParameterDeclarationStructure,
  PropertySignatureStructure,
  TypeAliasDeclarationStructure,
  TypeParameterDeclarationStructure,
  VariableStatementStructure,
} from "ts-morph";
import { jsDoc } from "../common/escape.ts";
import { Scope, StructureKind, VariableDeclarationKind } from "./ts-morph.ts";

/** A blank line between groups of statements (none is doubled, none starts or ends the file). */
export const BLANK_LINE = Symbol("blank line");

/** A statement: a structure, or text printed as it is (each line at the statement's indentation). */
export type PrintableStatement =
  | string
  | typeof BLANK_LINE
  | ImportDeclarationStructure
  | InterfaceDeclarationStructure
  | VariableStatementStructure
  | TypeAliasDeclarationStructure
  | ClassDeclarationStructure;

const INDENT = "  ";

/** The module's text, ending with one newline. */
export function printStatements(statements: readonly PrintableStatement[]): string {
  const lines: string[] = [];
  const blankLine = () => {
    if (lines.length > 0 && lines.at(-1) !== "") lines.push("");
  };
  for (const statement of statements) {
    if (statement === BLANK_LINE) blankLine();
    else if (typeof statement === "string") lines.push(...indented(statement.split("\n"), ""));
    else if (statement.kind === StructureKind.ImportDeclaration) lines.push(importDeclaration(statement));
    else if (statement.kind === StructureKind.TypeAlias) lines.push(...typeAlias(statement));
    else if (statement.kind === StructureKind.VariableStatement) lines.push(...variableStatement(statement));
    else {
      // Block declarations stand apart from their neighbours.
      blankLine();
      lines.push(...(statement.kind === StructureKind.Interface ? interfaceDeclaration(statement) : classDeclaration(statement)));
      blankLine();
    }
  }
  while (lines.at(-1) === "") lines.pop();
  return `${lines.join("\n")}\n`;
}

function known(structure: object, members: readonly string[], what: string): void {
  for (const [member, value] of Object.entries(structure)) {
    if (value !== undefined && member !== "kind" && !members.includes(member)) throw new Error(`generator/emit/print.ts cannot print \`${member}\` of ${what}`);
  }
}

function indented(lines: readonly string[], indent: string): string[] {
  return lines.map((line) => (line === "" ? "" : indent + line));
}

/** ts-morph's JSDoc: one line for one-line text, else a block. */
function docs(texts: ReadonlyArray<unknown> | undefined, indent: string): string[] {
  return (texts ?? []).map((text) => {
    if (typeof text !== "string") throw new Error("generator/emit/print.ts prints docs given as text only");
    return text.includes("\n") ? indent + jsDoc(text, indent) : `${indent}/** ${text} */`;
  });
}

function importDeclaration(structure: ImportDeclarationStructure): string {
  known(structure, ["moduleSpecifier", "namedImports", "namespaceImport", "isTypeOnly"], "an import");
  if (structure.namespaceImport !== undefined) return `import ${structure.isTypeOnly ? "type " : ""}* as ${structure.namespaceImport} from "${structure.moduleSpecifier}";`;
  const names = (structure.namedImports ?? []) as readonly unknown[];
  if (!names.every((name) => typeof name === "string")) throw new Error("generator/emit/print.ts prints named imports given by name only");
  return `import ${structure.isTypeOnly ? "type " : ""}{ ${names.join(", ")} } from "${structure.moduleSpecifier}";`;
}

function typeAlias(structure: TypeAliasDeclarationStructure): string[] {
  known(structure, ["name", "isExported", "docs", "type"], "a type alias");
  return [...docs(structure.docs, ""), `${structure.isExported ? "export " : ""}type ${structure.name} = ${text(structure.type)};`];
}

function variableStatement(structure: VariableStatementStructure): string[] {
  known(structure, ["declarationKind", "docs", "declarations", "isExported"], "a variable statement");
  if (structure.declarationKind !== VariableDeclarationKind.Const || structure.declarations.length !== 1) throw new Error("generator/emit/print.ts prints one const per statement only");
  const [declaration] = structure.declarations;
  known(declaration!, ["name", "initializer"], "a variable declaration");
  return [...docs(structure.docs, ""), `${structure.isExported ? "export " : ""}const ${declaration!.name} = ${text(declaration!.initializer)};`];
}

function interfaceDeclaration(structure: InterfaceDeclarationStructure): string[] {
  known(structure, ["name", "isExported", "extends", "docs", "properties"], "an interface");
  const heritage = structure.extends === undefined ? "" : ` extends ${(structure.extends as unknown[]).map(text).join(", ")}`;
  return [
    ...docs(structure.docs, ""),
    `${structure.isExported ? "export " : ""}interface ${structure.name}${heritage} {`,
    ...(structure.properties ?? []).flatMap((property) => propertySignature(property)),
    "}",
  ];
}

function propertySignature(structure: OptionalKind<PropertySignatureStructure>): string[] {
  known(structure, ["name", "hasQuestionToken", "type", "docs"], "an interface property");
  return [...docs(structure.docs, INDENT), `${INDENT}${structure.name}${structure.hasQuestionToken ? "?" : ""}: ${text(structure.type)};`];
}

function classDeclaration(structure: ClassDeclarationStructure): string[] {
  known(structure, ["name", "isExported", "extends", "docs", "ctors", "methods"], "a class");
  const members = [...(structure.ctors ?? []).map(constructorDeclaration), ...(structure.methods ?? []).map(methodDeclaration)];
  return [
    ...docs(structure.docs, ""),
    `${structure.isExported ? "export " : ""}class ${structure.name}${structure.extends === undefined ? "" : ` extends ${text(structure.extends)}`} {`,
    ...members.flatMap((member, index) => (index === 0 ? member : ["", ...member])),
    "}",
  ];
}

function constructorDeclaration(structure: OptionalKind<ConstructorDeclarationStructure>): string[] {
  known(structure, ["parameters", "statements"], "a constructor");
  return [`${INDENT}constructor(${parameters(structure.parameters)}) {`, ...body(structure.statements), `${INDENT}}`];
}

function methodDeclaration(structure: OptionalKind<MethodDeclarationStructure>): string[] {
  known(structure, ["name", "scope", "isAsync", "typeParameters", "docs", "parameters", "returnType", "statements"], "a method");
  const scope = structure.scope === undefined ? "" : structure.scope === Scope.Public ? "public " : `${structure.scope} `;
  const returns = structure.returnType === undefined ? "" : `: ${text(structure.returnType)}`;
  return [
    ...docs(structure.docs, INDENT),
    `${INDENT}${scope}${structure.isAsync ? "async " : ""}${structure.name}${typeParameters(structure.typeParameters)}(${parameters(structure.parameters)})${returns} {`,
    ...body(structure.statements),
    `${INDENT}}`,
  ];
}

function typeParameters(list: ReadonlyArray<string | OptionalKind<TypeParameterDeclarationStructure>> | undefined): string {
  if (list === undefined || list.length === 0) return "";
  const printed = list.map((parameter) => {
    if (typeof parameter === "string") return parameter;
    known(parameter, ["name", "constraint"], "a type parameter");
    return parameter.constraint === undefined ? parameter.name : `${parameter.name} extends ${text(parameter.constraint)}`;
  });
  return `<${printed.join(", ")}>`;
}

function parameters(list: ReadonlyArray<OptionalKind<ParameterDeclarationStructure>> | undefined): string {
  return (list ?? [])
    .map((parameter) => {
      known(parameter, ["name", "type", "hasQuestionToken", "initializer"], "a parameter");
      const type = parameter.type === undefined ? "" : `: ${text(parameter.type)}`;
      return `${parameter.name}${parameter.hasQuestionToken ? "?" : ""}${type}${parameter.initializer === undefined ? "" : ` = ${text(parameter.initializer)}`}`;
    })
    .join(", ");
}

/** A body's statements, each given as text (lines after the first keep their own indentation). */
function body(statements: unknown): string[] {
  const list = statements === undefined ? [] : Array.isArray(statements) ? statements : [statements];
  return list.flatMap((statement) => indented(text(statement).split("\n"), INDENT + INDENT));
}

function text(value: unknown): string {
  if (typeof value !== "string") throw new Error("generator/emit/print.ts prints types, initializers and statements given as text only");
  return value;
}
