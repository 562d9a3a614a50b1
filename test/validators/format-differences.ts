/**
 * Where ajv-formats and the validators' runtime answer differently for a format both check: the one
 * list of these, shared by the differential test (which checks each entry still holds) and the
 * corpus test (which excuses a disagreement on an example that carries one of these strings).
 */
/** Strings where ajv-formats and the runtime differ; the runtime follows RFC 3339/4122/5321 and the JSON-Schema-Test-Suite. */
export const FORMAT_DIFFERENCES: Array<{ format: string; value: string; runtime: boolean; ajvFormats: boolean; why: string }> = [
  { format: "date-time", value: "2026-06-01 12:00:00Z", runtime: false, ajvFormats: true, why: "RFC 3339 §5.6 separates date and time with T (ajv-formats also accepts a space)" },
  { format: "date-time", value: "1985-04-12T23:20:50+01", runtime: false, ajvFormats: true, why: "an offset needs minutes (suite: date-time.json)" },
  { format: "uuid", value: "urn:uuid:2eb8aa08-aa98-11ea-b4aa-73b441d16380", runtime: false, ajvFormats: true, why: "the URN form is not a UUID string (suite: uuid.json)" },
  { format: "email", value: '"joe bloggs"@example.com', runtime: true, ajvFormats: false, why: "RFC 5321 allows a quoted local part (suite: email.json)" },
  { format: "email", value: "joe.bloggs@[127.0.0.1]", runtime: true, ajvFormats: false, why: "RFC 5321 allows an address literal (suite: email.json)" },
  { format: "uri", value: "http://[::ffff:01.2.3.4]", runtime: false, ajvFormats: true, why: "RFC 3986 dec-octet has no leading zero (suite: uri.json)" },
];

/** True when `value` holds, at any depth, a string listed above: ajv and the validators may then differ. */
export function holdsFormatDifference(value: unknown): boolean {
  if (typeof value === "string") return FORMAT_DIFFERENCES.some((known) => known.value === value);
  if (Array.isArray(value)) return value.some(holdsFormatDifference);
  if (value !== null && typeof value === "object") return Object.values(value).some(holdsFormatDifference);
  return false;
}
