/**
 * Part: the per-page cost of auto-pagination. The paging fixture's client (Stripe's shape:
 * `has_more`, `starting_after` = the last item's id) lists every event of an in-memory fake, once
 * through its iterator (`for await` over the items, and over `.pages()`) and once by a hand-written
 * loop that calls the same method page after page. Both take the same client path (checks,
 * validation, hooks) and the same answers; what differs is the iterator's own work per page. The
 * fake is a `fetch` in this process (prepared answers), so no network noise enters the ratio.
 * Interleaved rounds, the order rotating each round; the ratio is of the medians.
 *
 *   npx tsx bench/pagination.ts [--quick] [--json]
 */
import path from "node:path";
import { generateClient } from "../test/support/generated-client.ts";
import { integer, isMain, markdownTable, median, REPO_ROOT, ratio, us } from "./lib.ts";

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 15 : 61;
const PAGES = 50;
const PER_PAGE = 20;
export const GOAL = 1.02;

export interface PaginationResult {
  pages: number;
  perPage: number;
  rounds: number;
  rows: Array<{ id: string; label: string; msPerPage: number }>;
  /** Iterator over the items ÷ hand-written loop, per page (ratio of medians). */
  ratio: number;
  pagesRatio: number;
  met: boolean;
  markdown: string;
}

const EVENTS = Array.from({ length: PAGES * PER_PAGE }, (_, i) => ({ id: `evt_${String(i + 1).padStart(5, "0")}`, type: i % 3 === 0 ? "pod.started" : "pod.stopped" }));

/** Every page's answer, by the `starting_after` that asks for it ("" for the first). */
function answers(): Map<string, string> {
  const byCursor = new Map<string, string>();
  for (let page = 0; page < PAGES; page++) {
    const data = EVENTS.slice(page * PER_PAGE, (page + 1) * PER_PAGE);
    byCursor.set(page === 0 ? "" : EVENTS[page * PER_PAGE - 1]!.id, JSON.stringify({ data, has_more: page < PAGES - 1 }));
  }
  return byCursor;
}

export async function runPagination(): Promise<PaginationResult> {
  const { Client } = await generateClient(path.join(REPO_ROOT, "test/fixtures/contracts/paging.yaml"), "bench-paging");
  const pages = answers();
  const fetch = async (request: Request): Promise<Response> => {
    const body = pages.get(new URL(request.url).searchParams.get("starting_after") ?? "");
    if (body === undefined) return new Response("{}", { status: 404, headers: { "content-type": "application/json" } });
    return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
  };
  const client = new Client({ baseUrl: "http://paging.bench", fetch });
  const query = { limit: PER_PAGE };

  const ways: Array<{ id: string; label: string; run: () => Promise<number> }> = [
    {
      id: "hand",
      label: "hand-written loop: `await client.listEvents({ query: { limit, starting_after } })` until `has_more` is false",
      run: async () => {
        let items = 0;
        let after: string | undefined;
        for (;;) {
          const { data: page } = await client.listEvents({ query: after === undefined ? query : { ...query, starting_after: after } });
          items += page.data.length;
          if (!page.has_more) return items;
          after = page.data.at(-1).id;
        }
      },
    },
    {
      id: "items",
      label: "iterator over the items: `for await (const event of client.listEvents({ query: { limit } }))`",
      run: async () => {
        let items = 0;
        for await (const _ of client.listEvents({ query })) items++;
        return items;
      },
    },
    {
      id: "pages",
      label: "iterator over the pages: `for await (const page of client.listEvents({ query: { limit } }).pages())`",
      run: async () => {
        let items = 0;
        for await (const page of client.listEvents({ query }).pages()) items += page.items.length;
        return items;
      },
    },
  ];
  for (const way of ways) await way.run();
  const times = new Map(ways.map((way) => [way.id, [] as number[]]));
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < ways.length; i++) {
      const way = ways[(i + round) % ways.length]!;
      const started = performance.now();
      const items = await way.run();
      times.get(way.id)!.push(performance.now() - started);
      if (items !== EVENTS.length) throw new Error(`${way.id} gave ${items} items, not ${EVENTS.length}`);
    }
  }
  const rows = ways.map((way) => ({ id: way.id, label: way.label, msPerPage: median(times.get(way.id)!) / PAGES }));
  const per = (id: string) => rows.find((row) => row.id === id)!.msPerPage;
  const itemsRatio = per("items") / per("hand");
  const pagesRatio = per("pages") / per("hand");
  const markdown = [
    markdownTable(
      ["Way", "Per page (median)", "÷ hand-written loop"],
      rows.map((row) => [row.label, us(row.msPerPage), row.id === "hand" ? "–" : ratio(row.msPerPage / per("hand"), 3)]),
    ),
    "",
    `${integer(PAGES)} pages of ${PER_PAGE} events (Stripe's paging shape, the paging fixture's \`listEvents\`) from an in-process \`fetch\` with prepared answers; every page validated; median of ${ROUNDS} interleaved rounds after a warm-up.`,
  ].join("\n");
  return { pages: PAGES, perPage: PER_PAGE, rounds: ROUNDS, rows, ratio: itemsRatio, pagesRatio, met: itemsRatio <= GOAL && pagesRatio <= GOAL, markdown };
}

if (isMain(import.meta.url)) {
  const result = await runPagination();
  process.stdout.write(process.argv.includes("--json") ? `${JSON.stringify(result)}\n` : `${result.markdown}\n`);
}
