/**
 * The validator compiler's door: `src/validators.ts` and `src/response-validators.ts` for a
 * contract's operations, and the emitter of validator modules for any schemas.
 */
export { emitOperationValidators, validatorNames } from "./operation-validators.ts";
export type { OperationValidators, StandaloneValidators, ValidatedSchema } from "./operation-validators.ts";
export type { ValidatorNames } from "./validator-names.ts";
export { emitValidatorModules, emitValidators } from "./modules.ts";
export type { EmitValidatorsOptions, ValidatorEntry, ValidatorModules } from "./modules.ts";
export type { UnknownFormats } from "./keywords/format.ts";
