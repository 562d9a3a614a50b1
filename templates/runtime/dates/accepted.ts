/**
 * The request types of a package generated with `--dates date`: its schema types give `Date` where
 * the contract says `format: date-time` or `date` (what results hold); a request takes the format's
 * text there as well, as it did before.
 */
export type DatesAccepted<T> = T extends Date ? Date | string : T extends object ? { [K in keyof T]: DatesAccepted<T[K]> } : T;
