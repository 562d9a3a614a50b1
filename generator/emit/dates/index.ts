/**
 * `src/dates.ts` (`--dates date`): per operation with dates in its parameters or success bodies,
 * its `DateConversion` (`templates/runtime/dates/convert.ts`), which its operation spec carries;
 * per component schema another emitter asks for (an event stream's data), its conversion; above
 * them one constant per named schema that holds dates. A schema emitter: it reads the schemas by
 * pointer (`plan.ts`).
 */
import { mediaTypeKind } from "../../common/media-types.ts";
import type { Warnings } from "../../common/warnings.ts";
import { uniqueIdentifiers } from "../../common/escape.ts";
import { escapeSegment } from "../../common/json-pointer.ts";
import type { LoadedContract } from "../../load/index.ts";
import type { ApiModel, OperationModel } from "../../model/index.ts";
import { code, join, raw, type Code } from "../code.ts";
import { importStatement, moduleText, valueKey } from "../typescript.ts";
import { DatePlanner, type Shape } from "./plan.ts";

export { dateFormatOf } from "./date-schema.ts";

/** The runtime folder the conversions need, copied only into a package with `--dates date`. */
export const DATES_RUNTIME_FOLDER = "dates";

interface OperationPlan {
  operation: OperationModel;
  request: Shape | undefined;
  responses: Array<[status: string, shape: Shape]>;
}

/**
 * `src/dates.ts` in the making: the operations' conversions, worked out when it is made, and the
 * conversions of component schemas that other emitters ask for (`schema`: an event stream's data),
 * written with them by `source`.
 */
export class DatesModule {
  /** The operations (by operationId) that have a conversion, each exported under its method's name. */
  readonly operations = new Set<string>();
  private readonly planner: DatePlanner;
  private readonly plans: OperationPlan[];
  private readonly dated = new Set<Shape>();
  private readonly taken: Set<string>;
  private readonly schemas = new Map<string, { name: string; shape: Shape }>();

  constructor(contract: Pick<LoadedContract, "document">, api: ApiModel, warnings: Warnings) {
    this.planner = new DatePlanner(contract.document, warnings);
    this.plans = api.operations.map((operation) => ({
      operation,
      request: this.planner.params(operation.parameters, operation.requestBody?.schemaPointer),
      responses:
        operation.responseKind !== "json"
          ? []
          : operation.successResponses.flatMap((response) => {
              if (response.schemaPointer === undefined || response.mediaType === undefined || mediaTypeKind(response.mediaType) !== "json") return [];
              const shape = this.planner.at(response.schemaPointer);
              return shape === undefined ? [] : [[response.status, shape] as [string, Shape]];
            }),
    }));
    this.markDated(this.plans.flatMap((plan) => [...(plan.request ? [plan.request] : []), ...plan.responses.map(([, shape]) => shape)]));
    for (const { operation, request, responses } of this.plans) {
      if ((request !== undefined && this.dated.has(request)) || responses.some(([, shape]) => this.dated.has(shape))) this.operations.add(operation.operationId);
    }
    this.taken = new Set(["$dateConversion", "$datesOf", "$DatePlace", ...api.operations.map((operation) => operation.methodName)]);
  }

  /**
   * `$dates.<name>`, the conversion of a value of the component schema `component` (`(value) => { data, issues }`),
   * or undefined when it holds no date; the module imported as `$dates` by whoever writes it.
   */
  schema(component: string): Code | undefined {
    const known = this.schemas.get(component);
    if (known !== undefined) return raw(`$dates.${known.name}`);
    const shape = this.planner.at(`/components/schemas/${escapeSegment(component)}`);
    if (shape === undefined) return undefined;
    this.markDated([shape]);
    if (!this.dated.has(shape)) return undefined;
    const [name] = uniqueIdentifiers([`${component}Dates`], { taken: this.taken });
    this.taken.add(name!);
    this.schemas.set(component, { name: name!, shape });
    return raw(`$dates.${name}`);
  }

  source(): string {
    const writer = new ShapeWriter(this.dated, this.planner, this.taken);
    const exports: Code[] = [];
    for (const { operation, request, responses } of this.plans) {
      if (!this.operations.has(operation.operationId)) continue;
      const requestCode = request !== undefined && this.dated.has(request) ? writer.node(request) : undefined;
      const responseCodes = responses.filter(([, shape]) => this.dated.has(shape)).map(([status, shape]) => code`${valueKey(status)}: ${writer.node(shape)}`);
      const args = [requestCode ?? raw("undefined"), ...(responseCodes.length > 0 ? [code`{ ${join(responseCodes, ", ")} }`] : [])];
      exports.push(code`export const ${raw(operation.methodName)} = /* @__PURE__ */ $dateConversion(${join(args, ", ")});`);
    }
    for (const { name, shape } of this.schemas.values()) exports.push(code`export const ${raw(name)} = /* @__PURE__ */ $datesOf(${writer.node(shape)});`);
    // No value holds a date: the module is there all the same, empty, as the option promises.
    if (exports.length === 0) return "export {};\n";
    const runtime = "./runtime/dates/convert.js";
    const imports = [
      importStatement({ from: runtime, names: [...(this.operations.size > 0 ? ["dateConversion as $dateConversion"] : []), ...(this.schemas.size > 0 ? ["datesOf as $datesOf"] : [])] }),
      ...(writer.declarations.length > 0 ? [importStatement({ from: runtime, typeOnly: true, names: ["DatePlace as $DatePlace"] })] : []),
    ];
    return moduleText([imports, writer.declarations, exports]);
  }

  private markDated(roots: readonly Shape[]): void {
    for (const shape of datedShapes(roots)) this.dated.add(shape);
  }
}

/** The shapes, among those reachable from `roots`, that hold a date somewhere below them (cycles included). */
function datedShapes(roots: readonly Shape[]): Set<Shape> {
  const all = new Set<Shape>();
  const stack = [...roots];
  while (stack.length > 0) {
    const shape = stack.pop()!;
    if (all.has(shape)) continue;
    all.add(shape);
    stack.push(...children(shape));
  }
  const dated = new Set<Shape>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const shape of all) {
      if (dated.has(shape) || (shape.date === undefined && !children(shape).some((child) => dated.has(child)))) continue;
      dated.add(shape);
      changed = true;
    }
  }
  return dated;
}

function children(shape: Shape): Shape[] {
  const list: Shape[] = [...(shape.properties?.values() ?? []), ...(shape.all ?? [])];
  if (shape.additional) list.push(shape.additional);
  if (shape.items) list.push(shape.items);
  for (const item of shape.prefix ?? []) if (item) list.push(item);
  for (const branch of shape.union?.branches ?? []) if (branch.shape) list.push(branch.shape);
  for (const branch of shape.discriminated?.cases.values() ?? []) list.push(branch);
  return list;
}

/** Writes shapes as `DateNode` literals: a named shape once, as a constant, referred to by name (by a function where it holds itself). */
class ShapeWriter {
  readonly declarations: Code[] = [];
  private readonly names = new Map<Shape, string>();
  private readonly written = new Set<Shape>();
  private readonly pending = new Set<Shape>();

  constructor(
    private readonly dated: ReadonlySet<Shape>,
    private readonly planner: DatePlanner,
    /** Names the module already uses: its imports and exports. */
    private readonly taken: Set<string>,
  ) {}

  /** A dated shape as a node: a named one's constant, or its literal. */
  node(shape: Shape): Code {
    if (shape.pointer === undefined) return this.literal(shape);
    const name = this.nameOf(shape);
    if (this.written.has(shape)) return raw(name);
    // Reached again while its own literal is being written: a function, read when converting.
    if (this.pending.has(shape)) return raw(`() => ${name}`);
    this.pending.add(shape);
    let value = this.literal(shape);
    if (value.text.startsWith("() =>")) value = code`{ all: [${value}] }`;
    this.declarations.push(code`const ${raw(name)}: $DatePlace = ${value};`);
    this.pending.delete(shape);
    this.written.add(shape);
    return raw(name);
  }

  private nameOf(shape: Shape): string {
    let name = this.names.get(shape);
    if (name === undefined) {
      const last = shape.pointer!.split("/").pop() || "schema";
      [name] = uniqueIdentifiers([`$${last.replace(/~1/g, "/").replace(/~0/g, "~")}`], { taken: this.taken });
      this.taken.add(name!);
      this.names.set(shape, name!);
    }
    return name!;
  }

  private literal(shape: Shape): Code {
    const dated = (child: Shape | undefined): child is Shape => child !== undefined && this.dated.has(child);
    const entries: Code[] = [];
    if (shape.date !== undefined) entries.push(code`date: ${shape.date}`);
    const properties = [...(shape.properties ?? [])].filter(([, child]) => dated(child));
    if (properties.length > 0) entries.push(code`properties: { ${join(properties.map(([key, child]) => code`${valueKey(key)}: ${this.node(child)}`), ", ")} }`);
    if (dated(shape.additional)) entries.push(code`additional: ${this.node(shape.additional)}`);
    if (shape.prefix?.some(dated)) entries.push(code`prefix: [${join(shape.prefix.map((item) => (dated(item) ? this.node(item) : raw("0"))), ", ")}]`);
    if (dated(shape.items)) entries.push(code`items: ${this.node(shape.items)}`);
    const all: Code[] = [];
    const loose: Code[] = [];
    for (const member of shape.all ?? []) {
      if (!dated(member)) continue;
      if (member.discriminated !== undefined) {
        const cases = [...member.discriminated.cases].filter(([, branch]) => dated(branch));
        all.push(code`{ discriminator: { property: ${member.discriminated.property}, cases: { ${join(cases.map(([value, branch]) => code`${valueKey(value)}: ${this.node(branch)}`), ", ")} } } }`);
        continue;
      }
      if (member.union === undefined) {
        all.push(this.node(member));
        continue;
      }
      const holding = member.union.branches.filter((branch) => dated(branch.shape));
      // One branch holds dates and no other could hold the same value: it is the one.
      if (holding.length === 1 && member.union.branches.every((branch) => branch === holding[0] || !branch.admitsContainers)) all.push(this.node(holding[0]!.shape!));
      else {
        this.planner.warnLoose(member.union.at);
        loose.push(...holding.map((branch) => this.node(branch.shape!)));
      }
    }
    // A shape that is only another one (a `$ref`, an `allOf` of one) is that one.
    if (entries.length === 0 && all.length === 1 && loose.length === 0) return all[0]!;
    if (all.length > 0) entries.push(code`all: [${join(all, ", ")}]`);
    if (loose.length > 0) entries.push(code`loose: [${join(loose, ", ")}]`);
    if (entries.length === 1 && shape.date !== undefined) return code`${shape.date}`;
    return code`{ ${join(entries, ", ")} }`;
  }
}
