/**
 * An operation's parameters as a table the runtime walks (`checkParameters`, `collectParameters`
 * in templates/runtime/validation.ts) rather than as code: the locations, each parameter's name and
 * whether it is required, and its schema's unit functions with the schema's pointer. The values'
 * schemas are units like any `$ref` target, so their issues point into the contract.
 */
import { pointer } from "../../common/json-pointer.ts";
import { code, join, name, raw, type Code, type Declaration } from "../code.ts";
import type { ValidatorCompiler } from "./compile.ts";
import { runtime } from "./runtime-helpers.ts";
import type { Direction } from "../../common/read-write.ts";

/** What a parameter's value is checked against: a schema, anything, or a string (a non-JSON `content` parameter, sent as it is). */
export type ParameterValue = { pointer: string; view?: Direction } | "any" | "string";

export interface ParameterSpec {
  name: string;
  required: boolean;
  value: ParameterValue;
}

export interface ParameterTableSpec {
  groups: Array<{ location: "path" | "query" | "header" | "cookie"; required: boolean; parameters: ParameterSpec[] }>;
  body?: { required: boolean; value: ParameterValue };
}

/** The tables of a module, each declared once: operations of one path often take the same parameters. */
export class ParameterTables {
  readonly declarations: Declaration[] = [];
  private readonly byText = new Map<string, Code>();

  constructor(private readonly compiler: ValidatorCompiler) {}

  /**
   * `const pt_<stem>: ParameterTable = [...]`, or the same table declared before. `at` is where the
   * same parameters stand as one schema (`{ path: {...}, ..., body }`): the pointer of the issues
   * about the call's shape, given beside the table.
   */
  table(stem: string, at: string, spec: ParameterTableSpec): Code {
    const groups = spec.groups.map((group) => {
      const rules = group.parameters.map((parameter) =>
        this.rule(parameter.name, parameter.required, parameter.value, at + pointer("properties", group.location, "properties", parameter.name)),
      );
      return code`[${group.location}, ${bool(group.required)}, [${join(rules, ", ")}]]`;
    });
    const body = spec.body === undefined ? raw("null") : this.rule("body", spec.body.required, spec.body.value, at + pointer("properties", "body"));
    const value = code`[[${join(groups, ", ")}], ${body}]`;
    const known = this.byText.get(value.text);
    if (known !== undefined) return known;
    const declared = `pt_${stem}`;
    const line = code`const ${raw(declared)} = ${value};`;
    this.declarations.push({ name: declared, text: line.text, names: line.names });
    this.byText.set(value.text, name(declared));
    return name(declared);
  }

  /** `[name, required, check, collect, schemaAt]`; `valueAt` is where a string value's schema would stand. */
  private rule(parameter: string, required: boolean, value: ParameterValue, valueAt: string): Code {
    if (value === "any") return code`[${parameter}, ${bool(required)}, null, null, ""]`;
    if (value === "string") return code`[${parameter}, ${bool(required)}, ${runtime("checkString")}, ${runtime("collectString")}, ${valueAt}]`;
    const unit = this.compiler.unitAt(value.pointer, undefined, value.view);
    return code`[${parameter}, ${bool(required)}, ${name(unit.check)}, ${name(unit.collect)}, ${unit.pointer}]`;
  }
}

function bool(value: boolean): Code {
  return raw(value ? "true" : "false");
}
