/**
 * The `rel="next"` target of a `Link` header (RFC 8288): `<https://api.example.com/x?page=2>; rel="next", <…>; rel="last"`.
 * A `rel` may list several types (`rel="next last"`); commas inside `<…>` or quotes do not split links.
 */
export function nextLink(header: string | null): string | undefined {
  if (header === null) return undefined;
  let at = 0;
  while (at < header.length) {
    const open = header.indexOf("<", at);
    if (open === -1) return undefined;
    const close = header.indexOf(">", open);
    if (close === -1) return undefined;
    const target = header.slice(open + 1, close).trim();
    const end = endOfLink(header, close + 1);
    if (relations(header.slice(close + 1, end)).includes("next")) return target;
    at = end + 1;
  }
  return undefined;
}

/** Where the link's parameters end: the next comma outside quotes. */
function endOfLink(header: string, from: number): number {
  let quoted = false;
  for (let i = from; i < header.length; i++) {
    const char = header[i];
    if (char === "\\" && quoted) i++;
    else if (char === '"') quoted = !quoted;
    else if (char === "," && !quoted) return i;
  }
  return header.length;
}

function relations(parameters: string): string[] {
  const match = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(parameters);
  const value = match?.[1] ?? match?.[2];
  return value === undefined ? [] : value.toLowerCase().split(/\s+/).filter(Boolean);
}
