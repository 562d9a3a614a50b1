/**
 * The one ordering of generated output: by UTF-16 code units, the same on every machine and locale
 * (`localeCompare` is neither), so that generating twice gives byte-identical files.
 */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
