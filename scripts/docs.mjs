#!/usr/bin/env node
// `npm run docs [-- --spec openapi/openapi.yaml] [--out .tmp/docs/api-reference.html]`
//
// Renders the contract to one self-contained HTML page with Redocly's `build-docs` (Redoc CE, its
// script inlined with --inlineBundle), then refuses the page (exit 1) if it would load anything
// from the network when opened: a <script src>, a stylesheet, font or image <link>, or a CSS url()
// pointing at http(s). Plain <a href> links are fine: nothing is fetched until someone clicks.
// Built on demand into .tmp/ (gitignored); open the file in any browser, offline.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DEFAULT_OUT = path.join(root, ".tmp", "docs", "api-reference.html");

/** Every reference in the page that a browser would fetch on load, as "what: URL". */
export function externalLoads(html) {
  const found = [];
  const external = /^(?:https?:)?\/\//i;
  for (const match of html.matchAll(/<(script|img|iframe|source|video|audio|embed)\b[^>]*?\bsrc\s*=\s*["']?([^"'\s>]+)/gi)) {
    if (external.test(match[2])) found.push(`<${match[1].toLowerCase()} src>: ${match[2]}`);
  }
  for (const match of html.matchAll(/<link\b[^>]*>/gi)) {
    const href = /\bhref\s*=\s*["']?([^"'\s>]+)/i.exec(match[0])?.[1];
    if (href && external.test(href)) found.push(`<link>: ${href}`);
  }
  for (const match of html.matchAll(/@import\s+(?:url\()?\s*["']?((?:https?:)?\/\/[^"')\s;]+)/gi)) found.push(`@import: ${match[1]}`);
  for (const match of html.matchAll(/url\(\s*["']?((?:https?:)?\/\/[^"')\s]+)/gi)) {
    // SVG namespace strings are identifiers, not fetches.
    if (!/^https?:\/\/www\.w3\.org\//.test(match[1])) found.push(`url(): ${match[1]}`);
  }
  return [...new Set(found)];
}

export function buildDocs({ spec = path.join(root, "openapi", "openapi.yaml"), out = DEFAULT_OUT } = {}) {
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const redocly = path.join(root, "node_modules", ".bin", "redocly");
  const result = spawnSync(redocly, ["build-docs", spec, "--inlineBundle", "-o", out], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
  });
  if (result.status !== 0) {
    throw new Error(`redocly build-docs failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
  const html = fs.readFileSync(out, "utf8");
  return { out, bytes: Buffer.byteLength(html), external: externalLoads(html) };
}

function main(argv) {
  const { values } = parseArgs({
    args: argv,
    options: { spec: { type: "string" }, out: { type: "string" }, help: { type: "boolean", short: "h" } },
    strict: true,
  });
  if (values.help) {
    process.stdout.write("usage: npm run docs -- [--spec openapi/openapi.yaml] [--out .tmp/docs/api-reference.html]\n");
    return 0;
  }
  const result = buildDocs({ spec: values.spec && path.resolve(values.spec), out: values.out ? path.resolve(values.out) : DEFAULT_OUT });
  const shown = path.relative(process.cwd(), result.out) || result.out;
  if (result.external.length > 0) {
    process.stderr.write(`${shown} would load from the network when opened:\n${result.external.map((e) => `  ${e}`).join("\n")}\n`);
    return 1;
  }
  process.stdout.write(`wrote ${shown} (${(result.bytes / 1024).toFixed(0)} KiB, self-contained: no external script, stylesheet or font)\n`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
