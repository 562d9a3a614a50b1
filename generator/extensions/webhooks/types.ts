/** The webhooks extension's part of the model. */

export const WEBHOOKS_EXTENSION = "webhooks";

/** A webhook the package receives: one name of the document's `webhooks`, and the operation whose body it parses. */
export interface WebhookModel {
  /** The key in `webhooks` (contract text: quoted wherever it becomes code). */
  name: string;
  method: string;
  /** The operation's pointer, e.g. `/webhooks/jobResult/post`. */
  pointer: string;
  summary?: string;
  description?: string;
  /** The JSON media type the body is sent as. */
  mediaType: string;
  /** The body's schema (after a `$ref`ed request body), or undefined when it has none: any JSON. */
  schemaPointer: string | undefined;
  /** The `components/schemas` entry the schema `$ref`s, if that is all it is: its type and validator are the component's. */
  component: string | undefined;
  /** Its type carries read-only or write-only markers (`common/read-write.ts`): written `AsWritten<…>`, as its validator checks it. */
  marked?: true;
  /**
   * For the README's example: the property whose values decide what else the body holds, as its
   * schema says with `allOf` items `if: {properties: {P: {const: V}}} then: {required: [F]}`
   * (a job's `status` and its `output` or `error`); undefined when the schema says none.
   */
  cases?: { property: string; values: Array<{ value: string; field: string }> };
}

export interface WebhooksModel {
  /** In the document's order of `webhooks`. */
  webhooks: WebhookModel[];
}
