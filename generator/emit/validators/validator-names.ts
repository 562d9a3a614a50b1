/** The names of the validators `src/validators.ts` exports, for the emitters that call them. */
export interface ValidatorNames {
  /** Stem per component schema name (`validate<Stem>`, `is<Stem>`, `withDefaults<Stem>`). */
  schemas: Map<string, string>;
  /** Per operation id: stems of its parameter and response validators, and the body's secret fields. */
  operations: Map<string, { request?: string; response?: string; secretBodyFields?: string[][] }>;
  /** Stem per schema pointer an extension asked to have validated (a component's pointer gives the component's stem). */
  pointers: Map<string, string>;
  /** Stems that have a `withDefaults…` function. */
  withDefaults: Set<string>;
}
