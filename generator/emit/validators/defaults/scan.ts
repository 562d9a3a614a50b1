/**
 * What one schema contributes to `withDefaults…`: whether a property schema right there has a
 * `default`, and the `$ref` targets reached through `properties`, `items` and `allOf` (the only
 * places whose defaults are applied). Scans of units are kept: each unit is scanned once.
 */
import { pointer } from "../../../common/json-pointer.ts";
import type { ValidatorCompiler } from "../compile.ts";
import { REF_KEYWORDS } from "../resolve.ts";
import { isObject, type SchemaObject } from "../schema-object.ts";

export interface Scan {
  /** A property schema right here (not behind a `$ref`) has a `default`. */
  direct: boolean;
  /** Pointers of `$ref` targets reached through properties, items and allOf. */
  refs: string[];
}

/** Whether a property schema has a `default` of its own. */
export function hasDefault(sub: unknown): sub is SchemaObject {
  return isObject(sub) && Object.hasOwn(sub, "default");
}

export class Scans {
  private readonly ofUnits = new Map<string, Scan>();

  constructor(private readonly compiler: ValidatorCompiler) {}

  /** The scan of the unit at `at`, the unit created if need be; a bad `$ref` throws. */
  ofUnit(at: string): Scan {
    let scan = this.ofUnits.get(at);
    if (scan === undefined) {
      scan = this.ofSchema(this.compiler.unitAt(at).schema, at);
      this.ofUnits.set(at, scan);
    }
    return scan;
  }

  /** The scan of the unit at `at` if the unit exists and scans cleanly; nothing is created. */
  ofExistingUnit(at: string): Scan | undefined {
    const known = this.ofUnits.get(at);
    if (known !== undefined) return known;
    const unit = this.compiler.units.get(at);
    if (unit === undefined) return undefined;
    let scan: Scan;
    try {
      scan = this.ofSchema(unit.schema, at);
    } catch {
      return undefined;
    }
    this.ofUnits.set(at, scan);
    return scan;
  }

  ofSchema(schema: unknown, at: string): Scan {
    const result: Scan = { direct: false, refs: [] };
    const walk = (node: unknown, where: string): void => {
      if (!isObject(node)) return;
      for (const keyword of REF_KEYWORDS) if (keyword in node) result.refs.push(this.compiler.resolveRef(node[keyword], `${where}/${keyword}`, keyword));
      const properties = node["properties"];
      if (isObject(properties)) {
        for (const [name, sub] of Object.entries(properties)) {
          if (hasDefault(sub)) result.direct = true;
          walk(sub, where + pointer("properties", name));
        }
      }
      const allOf = node["allOf"];
      if (Array.isArray(allOf)) allOf.forEach((sub, index) => walk(sub, `${where}/allOf/${index}`));
      walk(node["items"], where + "/items");
    };
    walk(schema, at);
    return result;
  }
}
