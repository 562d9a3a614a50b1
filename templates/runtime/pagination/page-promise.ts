/**
 * A paging operation's call: a promise of its first page, as any call is (`await` gives the
 * `ApiResult`), that is also an async iterable of every item across pages (`for await`), and
 * gives the pages themselves with `pages()`. Every page is asked for through the client core, as
 * any call is (credentials, request checks, hooks, retries, rate limits, typed errors); the call's
 * `signal`, `maxItems` and `maxPages` bound the iteration.
 */
import { ClientCore } from "../client-core.js";
import type { ApiResult, OperationParams, OperationSpec } from "../client-core.js";
import { AbortedError } from "../errors.js";
import { checkNumber } from "../option-checks.js";
import { NextPage } from "./next-page.js";
import type { PageOfItems, PaginationOptions, PaginationSpec } from "./types.js";

export class PagePromise<T, Item> extends Promise<ApiResult<T>> implements AsyncIterable<Item> {
  // `then`, `catch` and `finally` make plain promises: only the call itself iterates.
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  readonly #walk: (first: Promise<ApiResult<T>>) => AsyncGenerator<PageOfItems<T, Item>, void, undefined>;
  readonly #maxItems: number | undefined;
  readonly #checkAbort: () => void;

  /** Use `paginate`: the first page is asked for at once, the others as the iteration reaches them. */
  constructor(
    first: Promise<ApiResult<T>>,
    walk: (first: Promise<ApiResult<T>>) => AsyncGenerator<PageOfItems<T, Item>, void, undefined>,
    bounds: { maxItems: number | undefined; checkAbort: () => void },
  ) {
    super((resolve, reject) => first.then(resolve, reject));
    this.#walk = walk;
    this.#maxItems = bounds.maxItems;
    this.#checkAbort = bounds.checkAbort;
  }

  /** Each page in turn, the first one this call's. */
  pages(): AsyncGenerator<PageOfItems<T, Item>, void, undefined> {
    return this.#walk(this);
  }

  /**
   * Each item of each page in turn, at most `maxItems`. An iterator of its own rather than an
   * async generator: an item of a page already read costs one settled promise, not a generator's
   * round of queued resumptions.
   */
  items(): AsyncIterableIterator<Item> {
    const checkAbort = this.#checkAbort;
    let left = this.#maxItems ?? Infinity;
    let pages: AsyncGenerator<PageOfItems<T, Item>, void, undefined> | undefined;
    let current: readonly Item[] = [];
    let index = 0;
    let finished = left <= 0;
    const end = async (): Promise<IteratorResult<Item, undefined>> => {
      finished = true;
      await pages?.return();
      return { done: true, value: undefined };
    };
    const iterator: AsyncIterableIterator<Item> = {
      next: async (): Promise<IteratorResult<Item, undefined>> => {
        while (!finished) {
          if (index < current.length) {
            checkAbort();
            const value = current[index++]!;
            // The last item allowed: the pages stop here, without asking for another.
            if (--left <= 0) await end();
            return { done: false, value };
          }
          pages ??= this.pages();
          const page = await pages.next();
          if (page.done === true) return end();
          current = page.value.items;
          index = 0;
        }
        return { done: true, value: undefined };
      },
      return: end,
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Item> {
    return this.items();
  }
}

/**
 * Calls the operation for its first page and returns it as a `PagePromise`: what a paging
 * operation's method and standalone function return.
 */
export function paginate<T, Item>(client: ClientCore, spec: OperationSpec, params: OperationParams, options: PaginationOptions | undefined, pagination: PaginationSpec): PagePromise<T, Item> {
  const { maxItems, maxPages, ...request } = options ?? {};
  let first: Promise<ApiResult<T>>;
  try {
    checkNumber("maxItems", maxItems, { min: 0, integer: true, infinity: true });
    checkNumber("maxPages", maxPages, { min: 1, integer: true, infinity: true });
    first = ClientCore.send<T>(client, spec, params, request);
  } catch (error) {
    // A refused option rejects the call as a refused parameter does, rather than throwing where it is made.
    first = Promise.reject(error);
  }
  return new PagePromise<T, Item>(first, (firstPage) => walk<T, Item>(client, spec, params, request, pagination, firstPage, { maxItems, maxPages }), {
    maxItems,
    checkAbort: () => throwIfAborted(request.signal, spec),
  });
}

async function* walk<T, Item>(
  client: ClientCore,
  spec: OperationSpec,
  params: OperationParams,
  request: Omit<PaginationOptions, "maxItems" | "maxPages">,
  pagination: PaginationSpec,
  first: Promise<ApiResult<T>>,
  bounds: { maxItems: number | undefined; maxPages: number | undefined },
): AsyncGenerator<PageOfItems<T, Item>, void, undefined> {
  const next = new NextPage(spec, pagination);
  const maxItems = bounds.maxItems ?? Infinity;
  const maxPages = bounds.maxPages ?? Infinity;
  let result = await first;
  let asked = params;
  let pages = 1;
  let seen = 0;
  for (;;) {
    const items = next.items(result) as Item[];
    throwIfAborted(request.signal, spec);
    yield { items, result };
    seen += items.length;
    if (seen >= maxItems || pages >= maxPages) return;
    const following = next.next(asked, result, items);
    if (following === undefined) return;
    throwIfAborted(request.signal, spec);
    asked = following;
    result = await ClientCore.send<T>(client, spec, asked, request);
    pages += 1;
  }
}

/** Between pages the call's signal is looked at too: an abort stops the iteration, not only a request in flight. */
function throwIfAborted(signal: AbortSignal | undefined, spec: OperationSpec): void {
  if (signal?.aborted) throw new AbortedError({ method: spec.method, url: spec.path, reason: signal.reason });
}
