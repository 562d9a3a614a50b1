/** What an extension's emit-stage side adds to the package (see `reader.ts` for what an extension is). */
import type { Block, Code } from "../emit/code.ts";
import type { RenderedMarkdown } from "../emit/markdown.ts";
import type { EmittedModule } from "../emit/output-file.ts";
import type { ExportSpec, ImportSpec } from "../emit/typescript.ts";
import type { ValidatorNames } from "../emit/validators/validator-names.ts";
import type { OperationModel } from "../model/types.ts";

/** What the emit stage hands an extension's emitter besides the model. */
export interface EmitContext {
  /** The validators' exported names (per schema and per operation). */
  validators: ValidatorNames;
  /** The modules of the validators asked for standalone, by stem (see `standaloneValidators`). */
  standaloneValidators: ReadonlyMap<string, EmittedModule>;
  /**
   * With `--dates date`: the conversion of a component schema's values (`$dates.<name>`, the
   * module `./dates.js` imported as `$dates`), or undefined when they hold no date.
   */
  dates?: { schema(component: string): Code | undefined } | undefined;
}

/** What an extension adds to the package. */
export interface ExtensionOutput {
  /** Source files of its own (`src/…`), without the generated-file header. */
  files: Array<{ path: string; contents: string }>;
  /** Folders of `templates/runtime/` the package's runtime gets. */
  runtimeFolders: string[];
  /** `src/client.ts`: imports, declarations after the operations' types, and members of the client class. */
  client: { imports: ImportSpec[]; declarations: Block[]; methods: Block[] };
  /** `src/operation-specs.ts`: imports, and entries added to an operation's spec. */
  operationSpecs: { imports: ImportSpec[]; entries(operation: OperationModel): Code[] };
  /**
   * The client method and standalone function of an operation the extension calls otherwise than
   * the core does (an event stream's, which returns its events as they come), else undefined.
   */
  operationCalls?: {
    /** `src/operations.ts`'s imports for the functions below. */
    functionImports: ImportSpec[];
    method(operation: OperationModel): Block | undefined;
    /** `coreType` is the client core's type as `src/operations.ts` names it. */
    standalone(operation: OperationModel, coreType: Code): Block | undefined;
    /** The README's example of a call (`call` is the expression that makes it), else undefined. */
    example(operation: OperationModel, call: string): string | undefined;
  };
  /** npm packages the package's runtime needs (their versions are the workspace's). */
  dependencies?: string[];
  /** A sentence added to an operation's documented service limits, if any. */
  limitsNote(operation: OperationModel): string | undefined;
  /** `src/index.ts`'s exports. */
  indexExports: ExportSpec[];
  /** Its commands in the terminal command the package installs (`src/bin.ts`), if any. */
  bin: BinContribution | undefined;
  readme: ReadmeContribution;
}

/**
 * An extension's commands: the imports of `src/bin.ts` they need and the lines of one expression
 * that makes their `CommandGroup` (`runtime/cli/commands.ts`), given the `environment` and the
 * `createClient` the core declares there.
 */
export interface BinContribution {
  imports: Code[];
  group: Code[];
}

/** The extension's parts of the package README, rendered by its own templates. */
export interface ReadmeContribution {
  /** Entries of the table of contents, after the core's sections of calls. */
  contents: Array<{ title: string; anchor: string }>;
  /** Its sections, placed after the core's hooks section. */
  sections: RenderedMarkdown;
  /** Sentences added to the Errors section. */
  errors: RenderedMarkdown | undefined;
  /** Items of the Runtimes section's list: what of the extension's helpers a runtime lacks. */
  runtimes?: RenderedMarkdown | undefined;
  /** Rows of the Other exports table. */
  exportRows: RenderedMarkdown | undefined;
  /** Names imported by, and lines of, the Other exports example. */
  exampleImports: string[];
  exampleLines: string[];
}
