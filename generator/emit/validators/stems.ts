/**
 * Stems of the unit functions' names (`c_<stem>`, `e_<stem>`, `f_<stem>`): the entry's name or
 * the schema's last pointer segment, numbered from 2 on when taken.
 */
export class Stems {
  private readonly taken = new Set<string>();
  /**
   * Per base already taken, the suffix to try next: many units share a base (every parameter's
   * schema is a "schema"), and trying 2, 3, … from the start each time is quadratic.
   */
  private readonly nextSuffix = new Map<string, number>();

  /** `base`, or the first free `base2`, `base3`, … (`base_2`, … when `base` ends in a digit). */
  take(base: string): string {
    let stem = base;
    if (this.taken.has(stem)) {
      // Stems are never released, so every suffix below the one this base stopped at last time
      // is still taken.
      const separator = /[0-9]$/.test(base) ? "_" : "";
      let n = this.nextSuffix.get(base) ?? 2;
      while (this.taken.has((stem = `${base}${separator}${n}`))) n++;
      this.nextSuffix.set(base, n + 1);
    }
    this.taken.add(stem);
    return stem;
  }
}
