/**
 * A text for each string `format` the validators check, valid as they check it: what a value built
 * from a schema (the README's calls, the test kit's answers) gives a string of that format.
 */
export const FORMAT_TEXT: Readonly<Record<string, string>> = {
  "date-time": "2025-01-01T00:00:00Z",
  date: "2025-01-01",
  time: "00:00:00Z",
  duration: "PT1M",
  email: "user@example.com",
  "idn-email": "user@example.com",
  hostname: "example.com",
  "idn-hostname": "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  uri: "https://example.com/",
  "uri-reference": "https://example.com/",
  iri: "https://example.com/",
  "iri-reference": "https://example.com/",
  url: "https://example.com/",
  uuid: "00000000-0000-4000-8000-000000000000",
  byte: "",
  "json-pointer": "",
  regex: ".*",
};
