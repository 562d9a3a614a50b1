/** An error body's text, read within bounds: what the transport keeps of a non-2xx answer. */
import { MAX_RAW_BODY_BYTES } from "./error-base.js";

/**
 * Reads at most 64 KiB and cancels the rest, so a huge error body is never buffered whole; a body
 * that breaks off (a dropped connection, an abort) yields what arrived.
 */
export async function readBodyText(response: Response): Promise<string> {
  if (response.body === null || response.bodyUsed || response.body.locked) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < MAX_RAW_BODY_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
    if (size >= MAX_RAW_BODY_BYTES) await reader.cancel();
  } catch {
    // A body that breaks mid-way still yields what arrived.
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(Math.min(size, MAX_RAW_BODY_BYTES));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.byteLength - offset);
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
