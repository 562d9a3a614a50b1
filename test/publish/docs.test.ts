/**
 * The API reference: `npm run docs` (scripts/docs.mjs, Redocly build-docs with the Redoc script
 * inlined) renders the contract to one HTML page that loads nothing from the network; headless
 * Chromium (no host name resolves) runs its script, every operation is on the rendered page
 * (linked from the page, and its summary shown on its own route), and a screenshot is saved to
 * .tmp/docs/api-reference.png.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildModel } from "../../generator/model/index.ts";
import { loadContract } from "../../generator/load/contract.ts";
import type { ApiModel } from "../../generator/model/index.ts";
// @ts-expect-error: a JavaScript module without declarations
import { externalLoads } from "../../scripts/docs.mjs";
import { contractPath, repoRoot } from "../support/prism.ts";
import { CHROMIUM_MISSING, chromium, expectSuccess, findChromium, remove, run, scratch } from "./support.ts";

const binary = findChromium();
const screenshot = path.join(repoRoot, ".tmp", "docs", "api-reference.png");
let work: string | undefined;
let page: string;
let api: ApiModel;

/** The text a reader sees: no script, style or SVG, tags removed, entities decoded, spaces collapsed. */
function visibleText(html: string): string {
  return html
    .replace(/<script\b[\s\S]*?<\/script>/gi, " ")
    .replace(/<style\b[\s\S]*?<\/style>/gi, " ")
    .replace(/<svg\b[\s\S]*?<\/svg>/gi, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

function withoutScripts(html: string): string {
  return html.replace(/<script\b[\s\S]*?<\/script>/gi, " ");
}

/**
 * The DOM after Redoc's script has run. Chromium's virtual time budget counts page time, but a
 * machine busy with the rest of the suite can still cut a render short: a DOM that is not `ready`
 * is rendered once more with three times the budget, and the caller's checks apply to that one.
 */
async function renderedDom(url: string, ready: (dom: string) => boolean): Promise<string> {
  const render = async (budgetMs: number) =>
    (await chromium(binary!, url, [`--virtual-time-budget=${budgetMs}`, "--window-size=1280,2000", "--dump-dom"])).stdout;
  const dom = await render(10_000);
  return ready(dom) ? dom : render(30_000);
}

beforeAll(async () => {
  work = scratch("docs-");
  page = path.join(work, "api-reference.html");
  api = buildModel(await loadContract(contractPath));
});

afterAll(() => remove(work));

describe("npm run docs", () => {
  it("renders the contract to one self-contained HTML page", async () => {
    const result = expectSuccess(await run(process.execPath, [path.join(repoRoot, "scripts/docs.mjs"), "--out", page], { cwd: repoRoot, timeoutMs: 60_000 }), "npm run docs");
    expect(result.stdout).toContain("self-contained");
    const html = fs.readFileSync(page, "utf8");
    expect(html.length).toBeGreaterThan(500_000); // the Redoc bundle is inlined
    expect(externalLoads(html)).toEqual([]);
  });

  it("would refuse a page that loads its script from a CDN (Redocly's default without --inlineBundle)", async () => {
    const cdnPage = path.join(work!, "cdn.html");
    expectSuccess(
      await run(path.join(repoRoot, "node_modules/.bin/redocly"), ["build-docs", contractPath, "-o", cdnPage], {
        cwd: repoRoot,
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        timeoutMs: 60_000,
      }),
      "redocly build-docs",
    );
    expect((externalLoads(fs.readFileSync(cdnPage, "utf8")) as string[]).join("\n")).toMatch(/https:\/\/cdn\.redocly\.com\//);
  });
});

// Chromium is launched once for the page, once per tag whose operations Redoc shows on the tag's own
// route, and once per tag for one operation's own route, three at a time: on a loaded two-core
// machine that work takes minutes. The budget is the work's; no test here asserts how long a render takes.
describe("the page in headless Chromium", { timeout: 600_000 }, () => {
  it.skipIf(!binary)(`runs its script and shows every operation (${binary ? "chromium" : CHROMIUM_MISSING})`, async () => {
    const url = `file://${page}`;
    const operationLink = /href="#\/[^"]+\/[a-z0-9-]+"/;
    const linkTo = (operationId: string) => new RegExp(`href="(#/[^"/]+/${operationId.toLowerCase().replace(/[^a-z0-9]/g, "[^\"]?")})"`);
    const html = withoutScripts(await renderedDom(url, (dom) => operationLink.test(withoutScripts(dom))));
    // Links to the operations exist only once Redoc's script has run (the prerendered page has none).
    expect(withoutScripts(fs.readFileSync(page, "utf8"))).not.toMatch(operationLink);
    // Redoc lists the operations of the first tags on the page itself, and those of a later tag on
    // that tag's own route: each such route is rendered once, until every one of its links is there.
    const byTag = new Map<string, typeof api.operations>();
    for (const operation of api.operations) byTag.set(operation.tags[0] ?? "", [...(byTag.get(operation.tags[0] ?? "") ?? []), operation]);
    const routes = new Map<string, string>();
    for (const [tag, operations] of byTag) {
      const missing = operations.filter((operation) => !linkTo(operation.operationId).test(html));
      const tagPage =
        missing.length === 0
          ? html
          : withoutScripts(await renderedDom(`${url}#/${tag.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`, (dom) => missing.every((operation) => linkTo(operation.operationId).test(withoutScripts(dom)))));
      for (const operation of operations) {
        const route = linkTo(operation.operationId).exec(html)?.[1] ?? linkTo(operation.operationId).exec(tagPage)?.[1];
        expect(route, `no link to ${operation.operationId} on the rendered page`).toBeDefined();
        routes.set(operation.operationId, route!);
      }
    }
    expect(routes.size).toBe(api.operations.length);
    // One operation of each tag at its own route shows its summary (or operationId) and its path.
    const pending = [...byTag.values()].map((operations) => operations[0]!);
    const check = async () => {
      for (let operation = pending.shift(); operation; operation = pending.shift()) {
        const title = operation.summary ?? operation.operationId;
        const text = visibleText(await renderedDom(`${url}${routes.get(operation.operationId)}`, (dom) => visibleText(dom).includes(title)));
        expect(text, `${operation.operationId} at ${routes.get(operation.operationId)}`).toContain(title);
        expect(text).toContain(operation.path);
      }
    };
    await Promise.all([check(), check(), check()]);
  });

  it.skipIf(!binary)(`saves a screenshot of the page to .tmp/docs/api-reference.png (${binary ? "chromium" : CHROMIUM_MISSING})`, async () => {
    fs.mkdirSync(path.dirname(screenshot), { recursive: true });
    fs.rmSync(screenshot, { force: true });
    // As in renderedDom: a shot that looks blank (see the size check below) is taken once more with a longer budget.
    let png = Buffer.alloc(0);
    for (const budgetMs of [10_000, 30_000]) {
      await chromium(binary!, `file://${page}`, [`--virtual-time-budget=${budgetMs}`, "--window-size=1280,2000", "--hide-scrollbars", `--screenshot=${screenshot}`]);
      png = fs.readFileSync(screenshot);
      if (png.length > 40_000) break;
    }
    expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    expect(png.subarray(12, 16).toString("ascii")).toBe("IHDR");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1280, 2000]);
    // A blank 1280×2000 page compresses to a few kB; rendered text and layout do not.
    expect(png.length).toBeGreaterThan(40_000);
  });
});
