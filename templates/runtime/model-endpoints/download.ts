/**
 * Fetching a finished job's output file from the file host, before its URL expires. The file host
 * is not the API: nothing of the client goes with the request (no key, no cookies), and the URL's
 * query (a presigned URL's signature) never appears in an error.
 */
import { SdkError, blankOwnFields, nameClass } from "../error-base.js";
import { checkTimeout, deadlineSignal } from "../signals.js";

/** How long a download may take unless told otherwise: 10 minutes. */
export const DEFAULT_DOWNLOAD_TIMEOUT_MS = 10 * 60_000;
/** The largest file a download takes unless told otherwise: 2 GiB. */
export const DEFAULT_DOWNLOAD_MAX_BYTES = 2 * 1024 ** 3;

export interface DownloadOptions {
  /** The whole download (answer, body and writing it), 10 minutes by default; 0 or `Infinity`: no limit. */
  timeoutMs?: number | undefined;
  /** Bytes beyond which the download stops (2 GiB by default): nothing is kept of a file that passes it. */
  maxBytes?: number | undefined;
  signal?: AbortSignal | undefined;
  /** The `fetch` to use (the global one by default). */
  fetch?: typeof fetch | undefined;
}

/** What a download wrote. */
export interface DownloadReport {
  bytes: number;
  /** The file host's `Content-Type`, when it sent one. */
  contentType: string | undefined;
}

/** A job result, or anything with the output's `url` (and when it expires). */
export interface Downloadable {
  url: string | undefined;
  expiresAt?: Date | undefined;
  id?: string | undefined;
}

export type DownloadFailure = "no_url" | "bad_url" | "status" | "too_large" | "timeout" | "aborted" | "network" | "write";

/** A download that did not complete; nothing of the file is left at the destination path. */
export class DownloadError extends SdkError {
  static {
    nameClass(this, "DownloadError");
  }
  readonly reason: DownloadFailure;
  /** The file host's status, for `reason: "status"`. */
  readonly status: number | undefined;
  /** The URL without its query and fragment. */
  readonly url: string | undefined;

  constructor(reason: DownloadFailure, message: string, details: { status?: number; url?: string; cause?: unknown } = {}) {
    super("download_failed", message);
    this.reason = reason;
    this.status = details.status;
    this.url = details.url;
    if (details.cause !== undefined) Object.defineProperty(this, "cause", { value: details.cause, writable: true, configurable: true });
    blankOwnFields(this);
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), reason: this.reason, status: this.status, url: this.url };
  }
}

/**
 * Fetches the job's output file: to a `Blob` without a destination; into a `WritableStream`; or,
 * on Node.js, to a file path (written beside it first and renamed into place once whole, so a
 * failed download leaves nothing there). Bounded by `timeoutMs` and `maxBytes`.
 */
export function download(result: Downloadable, options?: DownloadOptions): Promise<Blob>;
export function download(result: Downloadable, destination: string | WritableStream<Uint8Array>, options?: DownloadOptions): Promise<DownloadReport>;
export async function download(
  result: Downloadable,
  destinationOrOptions?: string | WritableStream<Uint8Array> | DownloadOptions,
  maybeOptions?: DownloadOptions,
): Promise<Blob | DownloadReport> {
  const toBlob = destinationOrOptions === undefined || (typeof destinationOrOptions === "object" && !isWritable(destinationOrOptions));
  const options = (toBlob ? destinationOrOptions : maybeOptions) as DownloadOptions | undefined;
  const destination = toBlob ? undefined : (destinationOrOptions as string | WritableStream<Uint8Array>);
  const timeoutMs = options?.timeoutMs ?? DEFAULT_DOWNLOAD_TIMEOUT_MS;
  checkTimeout("timeoutMs", timeoutMs);
  const maxBytes = options?.maxBytes ?? DEFAULT_DOWNLOAD_MAX_BYTES;
  if (!(maxBytes > 0)) throw new RangeError(`maxBytes: expected a positive number of bytes, got ${String(maxBytes)}`);
  if (typeof destination === "string" && destination === "") throw new TypeError("destination: expected a file path, got an empty string");

  const url = result?.url;
  const of = result?.id === undefined ? "the result" : `job ${result.id}'s result`;
  if (typeof url !== "string" || url === "") throw new DownloadError("no_url", `${of} has no output URL to download`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DownloadError("bad_url", `${of} has an output URL that is not a URL`);
  }
  const shown = `${parsed.origin}${parsed.pathname}`;
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new DownloadError("bad_url", `${shown}: only http and https URLs are downloaded`, { url: shown });
  const expired = result.expiresAt !== undefined && result.expiresAt.getTime() <= Date.now();
  const expiry = expired ? ` (the URL was only sure to work until ${result.expiresAt!.toISOString()})` : "";

  const deadline = deadlineSignal(options?.signal, timeoutMs === 0 ? Infinity : timeoutMs);
  // A platform's or a custom fetch's message may quote the URL, signature included.
  const blanked = (text: string) => (parsed.search === "" ? text : text.split(url).join(shown).split(parsed.search).join(""));
  const stopped = (cause: unknown): DownloadError => {
    if (deadline.expired()) return new DownloadError("timeout", `${shown}: the download took longer than ${timeoutMs} ms`, { url: shown });
    if (options?.signal?.aborted) return new DownloadError("aborted", `${shown}: the download was aborted`, { url: shown, cause: options.signal.reason });
    const message = blanked((cause as Error)?.message ?? String(cause));
    return new DownloadError("network", `${shown}: the download failed: ${message}`, { url: shown, cause: { name: (cause as Error)?.name ?? "Error", message } });
  };
  // A write that never settles (a stalled stream or disk) still ends at the deadline or the signal.
  const bounded = <T>(promise: Promise<T>): Promise<T> => {
    const signal = deadline.signal;
    if (signal === undefined) return promise;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(stopped(signal.reason));
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
  };
  try {
    let response: Response;
    try {
      // Only the URL: no key, no cookies, no headers of the client's.
      response = await (options?.fetch ?? fetch)(url, { signal: deadline.signal, credentials: "omit", redirect: "follow" });
    } catch (error) {
      throw stopped(error);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new DownloadError("status", `${shown}: the file host answered ${response.status}${expiry}`, { status: response.status, url: shown });
    }
    const declared = Number(response.headers.get("content-length") ?? Number.NaN);
    const tooLarge = () => new DownloadError("too_large", `${shown}: the file is larger than maxBytes (${maxBytes} bytes)`, { url: shown });
    if (declared > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge();
    }
    const contentType = response.headers.get("content-type") ?? undefined;
    let sink: Sink;
    try {
      sink = typeof destination === "string" ? await fileSink(destination, shown) : destination === undefined ? blobSink(contentType) : streamSink(destination, shown);
    } catch (error) {
      await response.body?.cancel().catch(() => undefined);
      throw error;
    }
    let bytes = 0;
    try {
      const reader = response.body?.getReader();
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = reader ? await reader.read() : { done: true, value: undefined };
        } catch (error) {
          throw stopped(error);
        }
        if (chunk.done) break;
        bytes += chunk.value.byteLength;
        if (bytes > maxBytes) {
          await reader!.cancel().catch(() => undefined);
          throw tooLarge();
        }
        await bounded(sink.write(chunk.value));
      }
      const blob = await bounded(sink.close());
      return blob ?? { bytes, contentType };
    } catch (error) {
      await sink.discard(error);
      throw error;
    }
  } finally {
    deadline.dispose();
  }
}

function isWritable(value: object): value is WritableStream<Uint8Array> {
  return typeof (value as WritableStream).getWriter === "function";
}

interface Sink {
  write(chunk: Uint8Array): Promise<void>;
  /** Completes the destination; the Blob, for a Blob sink. */
  close(): Promise<Blob | undefined>;
  /** Undoes what was written, after a failure. */
  discard(reason: unknown): Promise<void>;
}

function blobSink(type: string | undefined): Sink {
  const chunks: BlobPart[] = [];
  return {
    async write(chunk) {
      // A fetch body's chunks are never on a SharedArrayBuffer.
      chunks.push(chunk as BlobPart);
    },
    async close() {
      return new Blob(chunks, type === undefined ? {} : { type });
    },
    async discard() {
      chunks.length = 0;
    },
  };
}

function streamSink(stream: WritableStream<Uint8Array>, shown: string): Sink {
  const writer = stream.getWriter();
  const failed = (error: unknown) => new DownloadError("write", `${shown}: the destination stream refused the data: ${(error as Error)?.message ?? String(error)}`, { url: shown, cause: error });
  return {
    async write(chunk) {
      await writer.write(chunk).catch((error: unknown) => Promise.reject(failed(error)));
    },
    async close() {
      await writer.close().catch((error: unknown) => Promise.reject(failed(error)));
      return undefined;
    },
    async discard(reason) {
      // Not awaited: an abort waits for a write in flight, which may never settle.
      void writer.abort(reason).catch(() => undefined);
    },
  };
}

/** The subset of node:fs/promises a file sink uses. */
interface NodeFiles {
  open(path: string, flags: string): Promise<{ write(data: Uint8Array): Promise<unknown>; close(): Promise<void> }>;
  rename(from: string, to: string): Promise<void>;
  rm(path: string, options: { force: boolean }): Promise<void>;
}

/**
 * Writes beside the destination, then renames into place. Node's modules are reached through
 * `process.getBuiltinModule` (Node 20.16+), not an import, so that browser bundles of the package
 * never meet a `node:` specifier.
 */
async function fileSink(destination: string, shown: string): Promise<Sink> {
  const builtin = (globalThis as { process?: { getBuiltinModule?(name: string): unknown } }).process?.getBuiltinModule;
  if (typeof builtin !== "function") {
    throw new TypeError("destination: a file path needs Node.js 20.16 or later (process.getBuiltinModule); pass a WritableStream, or no destination for a Blob");
  }
  const files = builtin("node:fs/promises") as NodeFiles;
  const partial = `${destination}.${Math.random().toString(36).slice(2, 10)}.part`;
  const failed = (error: unknown) => new DownloadError("write", `${shown}: could not write ${destination}: ${(error as Error)?.message ?? String(error)}`, { url: shown, cause: error });
  const handle = await files.open(partial, "wx").catch((error: unknown) => Promise.reject(failed(error)));
  let open = true;
  const closeHandle = async () => {
    if (open) {
      open = false;
      await handle.close();
    }
  };
  return {
    async write(chunk) {
      await handle.write(chunk).catch((error: unknown) => Promise.reject(failed(error)));
    },
    async close() {
      try {
        await closeHandle();
        await files.rename(partial, destination);
      } catch (error) {
        throw failed(error);
      }
      return undefined;
    },
    async discard() {
      await closeHandle().catch(() => undefined);
      await files.rm(partial, { force: true }).catch(() => undefined);
    },
  };
}
