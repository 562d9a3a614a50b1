/**
 * The views of a type with read-only and write-only markers (openapi-typescript's `$Read<T>` and
 * `$Write<T>`), declared in `src/schema.ts` of a document that marks properties. Each unwraps the
 * markers; they differ in what they keep:
 *
 * - `InRequest`: a read-only property is optional (a request never needs it; one given is sent as
 *   it is, and checked by its schema), a write-only one as declared;
 * - `InResponse`: a write-only property is left out (a response never holds it), a read-only one
 *   as declared;
 * - `AsWritten`: every property as declared (a component's exported type, beside its validator,
 *   which checks the schema as written).
 *
 * Arrays and tuples are mapped as such; an object's other members keep their modifiers; a `Date`
 * (`--dates date`) stays one.
 * openapi-typescript's own `Readable` and `Writable` are not used: `Writable` forbids a read-only
 * property (`?: never`), so an object read from the service cannot be sent back as it is.
 */
export const READ_WRITE_VIEWS = `
export type InRequest<T> = T extends $Read<infer U> ? InRequest<U> : T extends $Write<infer U> ? InRequest<U> : T extends Date ? T : T extends readonly unknown[] ? { [K in keyof T]: InRequest<T[K]> } : T extends object ? { [K in keyof T as NonNullable<T[K]> extends $Read<unknown> ? never : K]: InRequest<T[K]> } & { [K in keyof T as NonNullable<T[K]> extends $Read<unknown> ? K : never]?: InRequest<T[K]> } : T;
export type InResponse<T> = T extends $Read<infer U> ? InResponse<U> : T extends $Write<infer U> ? InResponse<U> : T extends Date ? T : T extends readonly unknown[] ? { [K in keyof T]: InResponse<T[K]> } : T extends object ? { [K in keyof T as NonNullable<T[K]> extends $Write<unknown> ? never : K]: InResponse<T[K]> } : T;
export type AsWritten<T> = T extends $Read<infer U> ? AsWritten<U> : T extends $Write<infer U> ? AsWritten<U> : T extends Date ? T : T extends object ? { [K in keyof T]: AsWritten<T[K]> } : T;
`;

/** Each view's doc comment in `src/schema.ts` (its printer drops the comments of parsed text). */
export const READ_WRITE_VIEW_DOCS: Readonly<Record<string, string>> = {
  InRequest: "A type as a request sends it: read-only properties are never required (one given is sent).",
  InResponse: "A type as a response holds it: write-only properties are left out.",
  AsWritten: "A type as its schema is written: read-only and write-only properties as declared.",
  $Read: "A read-only property's type, as marked: see `InRequest`, `InResponse`, `AsWritten`.",
  $Write: "A write-only property's type, as marked: see `InRequest`, `InResponse`, `AsWritten`.",
};
