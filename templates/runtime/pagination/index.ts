/** The pagination runtime in one module, as the generated client imports it. */
export { PagePromise, paginate } from "./page-promise.js";
export { nextLink } from "./link-header.js";
export type { ItemsAt, PageOfItems, PaginationOptions, PaginationSpec } from "./types.js";
