/**
 * The Handlebars templates of `templates/package/` (the package's non-TypeScript files: manifest,
 * tsconfigs, README, LICENSE, the build's script), rendered with the escaping helpers only: a template with `{{{ }}}`
 * is refused before rendering.
 */
import fs from "node:fs";
import path from "node:path";
import Handlebars from "handlebars";
import { assertNoTripleStash, registerHandlebarsHelpers } from "../common/escape.ts";
import { TEMPLATES_DIR } from "../common/paths.ts";
import { registerMarkdownHelpers } from "./markdown.ts";

const handlebars = Handlebars.create();
registerHandlebarsHelpers(handlebars);
registerMarkdownHelpers(handlebars);

/** `templates/package/<name>` rendered with `data`; an unknown field is an error (strict). */
export function renderTemplate(name: string, data: object): string {
  const file = path.join(TEMPLATES_DIR, "package", name);
  const source = fs.readFileSync(file, "utf8");
  assertNoTripleStash(source, file);
  return handlebars.compile(source, { strict: true, noEscape: false })(data);
}
