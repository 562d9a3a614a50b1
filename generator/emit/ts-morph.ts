/**
 * ts-morph's values, loaded with `require`: ts-morph and the TypeScript it carries are CommonJS, and
 * importing them as ES modules makes Node scan 9 MB of source for export names first (a fifth of a
 * cold run). Types still come from `import type { … } from "ts-morph"`.
 */
import { createRequire } from "node:module";
import type * as TsMorph from "ts-morph";

const tsMorph = createRequire(import.meta.url)("ts-morph") as typeof TsMorph;

export const { Project, Scope, StructureKind, VariableDeclarationKind } = tsMorph;
export type Project = TsMorph.Project;
export type Scope = TsMorph.Scope;
export type VariableDeclarationKind = TsMorph.VariableDeclarationKind;
export type StructureKind = TsMorph.StructureKind;
