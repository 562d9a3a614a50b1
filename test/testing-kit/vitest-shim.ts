/**
 * `describe` and `it` for a README example that is itself a vitest file, run inside a test: its
 * tests are collected, then run by the test that imported it; `expect` is vitest's own.
 */
export { expect } from "vitest";

export const collected: Array<{ name: string; run: () => Promise<void> | void }> = [];
let prefix = "";

export function describe(name: string, body: () => void): void {
  const outer = prefix;
  prefix = `${outer}${name} > `;
  try {
    body();
  } finally {
    prefix = outer;
  }
}

export function it(name: string, run: () => Promise<void> | void): void {
  collected.push({ name: `${prefix}${name}`, run });
}
