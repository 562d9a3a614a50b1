/**
 * Module-level constants of the emitted code, each made once per module and named by kind and
 * number: copies of JSON data (`k_N`), sets of enum values (`set_N`), and per pattern a scan
 * function (`match_N`, validators/patterns.ts) or a precompiled regular expression (`re_N`).
 */
import { code, indent, name, raw, type Code, type Declaration } from "../code.ts";
import { primitiveLiteral } from "../../common/escape.ts";
import type { Pattern } from "./keyword-values.ts";
import { parsePattern, patternScan } from "./patterns.ts";

export class ModuleConstants {
  /** In creation order. */
  readonly declarations: Declaration[] = [];
  private readonly patterns = new Map<string, string>();
  private readonly json = new Map<string, string>();
  private readonly sets = new Map<string, string>();

  /** A constant holding a copy of JSON data (parsed, so `__proto__` stays data). */
  jsonValue(value: unknown): Code {
    const text = JSON.stringify(value);
    let declared = this.json.get(text);
    if (declared === undefined) {
      declared = `k_${this.json.size}`;
      this.json.set(text, declared);
      this.declare(declared, code`const ${raw(declared)} = /* @__PURE__ */ JSON.parse(${text});`);
    }
    return name(declared);
  }

  /** A `Set` of JSON primitives, one per distinct list: a large API repeats its enums in many schemas. */
  primitiveSet(values: readonly unknown[]): Code {
    const members = values.map(primitiveLiteral).join(", ");
    let declared = this.sets.get(members);
    if (declared === undefined) {
      declared = `set_${this.sets.size}`;
      this.sets.set(members, declared);
      this.declare(declared, code`const ${raw(declared)} = /* @__PURE__ */ new Set([${raw(members)}]);`);
    }
    return name(declared);
  }

  /**
   * The test of a `pattern` (ECMAScript semantics with the `u` flag, as JSON Schema asks, or
   * without it for a pattern only valid so; already checked to compile), as a function from the
   * tested expression to code. Scans are made for `u` patterns only (patterns.ts reads that syntax).
   */
  pattern({ source, unicode }: Pattern): (value: Code) => Code {
    const key = `${unicode ? "u" : "-"}${source}`;
    let declared = this.patterns.get(key);
    if (declared === undefined) {
      const scan = unicode ? parsePattern(source) : undefined;
      declared = `${scan === undefined ? "re" : "match"}_${this.patterns.size}`;
      this.patterns.set(key, declared);
      if (scan === undefined) {
        this.declare(declared, code`const ${raw(declared)} = /* @__PURE__ */ new RegExp(${source}, ${unicode ? "u" : ""});`);
      } else {
        // The scan's own locals (`s`, `i`, `n`, …) reference nothing outside it.
        this.declarations.push({ name: declared, text: [`function ${declared}(s) {`, ...indent(patternScan(scan)), "}"].join("\n"), names: [] });
      }
    }
    return tester(name(declared));
  }

  private declare(declared: string, line: Code): void {
    this.declarations.push({ name: declared, text: line.text, names: line.names });
  }
}

/** `re_N.test(value)` or `match_N(value)`. */
function tester(compiled: Code): (value: Code) => Code {
  return compiled.text.startsWith("re_") ? (value) => code`${compiled}.test(${value})` : (value) => code`${compiled}(${value})`;
}
