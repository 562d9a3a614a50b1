/**
 * Minimal shapes of the parts of an OpenAPI document the generator reads; everything else stays
 * open (`any`). The document is the loaded one: 3.1, a 3.0 document having been upgraded.
 */

export interface ReferenceObject {
  $ref: string;
  summary?: string;
  description?: string;
}

/** A JSON Schema 2020-12 object; too open to model usefully here. */
export type SchemaObject = Record<string, any>;

export interface InfoObject {
  title: string;
  version: string;
  description?: string;
  [member: string]: any;
}

export interface ServerObject {
  url: string;
  description?: string;
  variables?: Record<string, { default: string; enum?: string[]; description?: string }>;
  [member: string]: any;
}

export interface OperationObject {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  [member: string]: any;
}

export interface PathItemObject {
  $ref?: string;
  get?: OperationObject;
  put?: OperationObject;
  post?: OperationObject;
  delete?: OperationObject;
  options?: OperationObject;
  head?: OperationObject;
  patch?: OperationObject;
  trace?: OperationObject;
  [member: string]: any;
}

export interface ComponentsObject {
  schemas?: Record<string, SchemaObject>;
  responses?: Record<string, any>;
  parameters?: Record<string, any>;
  requestBodies?: Record<string, any>;
  headers?: Record<string, any>;
  securitySchemes?: Record<string, any>;
  [member: string]: any;
}

export interface OpenApiDocument {
  openapi: string;
  info: InfoObject;
  /** Required in 3.0; a 3.1 document may have none (webhooks or components only). */
  paths?: Record<string, PathItemObject>;
  servers?: ServerObject[];
  components?: ComponentsObject;
  [member: string]: any;
}
