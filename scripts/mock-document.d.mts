/** The contract with per-model submission paths, as a document object (see mock-document.mjs). */
export function mockDocumentOf(contract: object): object;
/** Writes the mock's document for the contract at `contractPath` into a fresh temporary folder; returns the file's path. */
export function writeMockDocument(contractPath: string): string;
