/**
 * The date conversion of a package generated with `--dates date` (templates/runtime/dates/):
 * RFC 3339 text to the instant it names, Dates to the format's text in UTC, and the walk a
 * generated plan drives (properties, other members, items by position and after, nodes that apply
 * as well, loose union branches, a plan that holds itself).
 */
import { describe, expect, it } from "vitest";
import { dateConversion, parseDate, type DatePlace } from "../../templates/runtime/dates/convert.ts";

describe("parseDate", () => {
  it.each([
    ["2026-06-01T12:00:00Z", "2026-06-01T12:00:00.000Z"],
    ["2026-06-01t12:00:00z", "2026-06-01T12:00:00.000Z"],
    ["2026-06-01T12:00:00.5+02:00", "2026-06-01T10:00:00.500Z"],
    ["2026-06-01T00:30:00.123456-01:45", "2026-06-01T02:15:00.123Z"],
    ["2016-12-31T23:59:60Z", "2017-01-01T00:00:00.000Z"],
    ["0099-03-01T00:00:00Z", "0099-03-01T00:00:00.000Z"],
  ])("reads the date-time %s as %s", (text, iso) => {
    expect(parseDate("date-time", text)?.toISOString()).toBe(iso);
  });

  it("reads a date as its midnight UTC, the years before 100 included", () => {
    expect(parseDate("date", "2024-02-29")?.toISOString()).toBe("2024-02-29T00:00:00.000Z");
    expect(parseDate("date", "0042-01-02")?.toISOString()).toBe("0042-01-02T00:00:00.000Z");
  });

  it.each([
    ["date-time", "2026-06-01T12:00:00"],
    ["date-time", "2026-06-01 12:00:00Z"],
    ["date-time", "2026-02-30T12:00:00Z"],
    ["date-time", "2026-06-01"],
    ["date", "2023-02-29"],
    ["date", "2026-06-01T12:00:00Z"],
    ["date", "June 1st"],
  ] as const)("refuses the %s %s, as the validators do", (format, text) => {
    expect(parseDate(format, text)).toBeUndefined();
  });
});

describe("dateConversion", () => {
  const event: DatePlace = { properties: { at: "date-time", day: "date", tags: { additional: "date-time" }, spans: { prefix: ["date", 0], items: "date-time" } } };

  it("turns a success body's date strings into Dates where the plan says, and leaves every other value", () => {
    const body = { at: "2026-06-01T12:00:00Z", day: "2026-06-01", label: "2026-06-01T12:00:00Z", tags: { a: "2026-01-01T00:00:00Z" }, spans: ["2026-01-02", "x", "2026-01-03T00:00:00Z"] };
    const { data, issues } = dateConversion(undefined, { "200": event }).fromJson(200, body);
    expect(issues).toEqual([]);
    expect(data).toEqual({
      at: new Date("2026-06-01T12:00:00Z"),
      day: new Date("2026-06-01T00:00:00Z"),
      label: "2026-06-01T12:00:00Z",
      tags: { a: new Date("2026-01-01T00:00:00Z") },
      spans: [new Date("2026-01-02T00:00:00Z"), "x", new Date("2026-01-03T00:00:00Z")],
    });
  });

  it("uses a status range's plan, and none for a status it has none for", () => {
    const conversion = dateConversion(undefined, { "2XX": "date-time" });
    expect(conversion.fromJson(201, "2026-06-01T12:00:00Z").data).toBeInstanceOf(Date);
    expect(dateConversion(undefined, { "200": "date-time" }).fromJson(202, "2026-06-01T12:00:00Z").data).toBe("2026-06-01T12:00:00Z");
  });

  it("reports a string that is no date where the plan says one, by its JSON pointer; under a loose union it stays a string", () => {
    const plan: DatePlace = { properties: { "a/b": "date-time", either: { loose: [{ properties: { at: "date-time" } }] } } };
    const { data, issues } = dateConversion(undefined, { "200": plan }).fromJson(200, { "a/b": "yesterday", either: { at: "soon" } });
    expect(issues).toEqual([{ path: "/a~1b", keyword: "format", message: "must be an RFC 3339 date-time", schemaPath: "" }]);
    expect(data).toEqual({ "a/b": "yesterday", either: { at: "soon" } });
  });

  it("follows a plan that holds itself, and the nodes that apply as well", () => {
    const note: DatePlace = { properties: { at: "date-time", children: { items: () => note } } };
    const plan: DatePlace = { all: [note, { properties: { seen: "date" } }] };
    const body = { at: "2026-01-01T00:00:00Z", seen: "2026-01-02", children: [{ at: "2026-01-03T00:00:00Z", children: [{ at: "2026-01-04T00:00:00Z", children: [] }] }] };
    const { data } = dateConversion(undefined, { "200": plan }).fromJson(200, body) as { data: any };
    expect(data.seen).toEqual(new Date("2026-01-02T00:00:00Z"));
    expect(data.children[0].children[0].at).toEqual(new Date("2026-01-04T00:00:00Z"));
  });

  it("writes a caller's Dates as the format's text in UTC, copying what it changes and leaving strings as they are", () => {
    const request: DatePlace = { properties: { query: { properties: { since: "date-time", days: { items: "date" } } }, body: event } };
    const body = { at: new Date("2026-06-01T23:30:00-02:00"), day: new Date("2026-06-01T23:30:00-02:00"), label: new Date(0), tags: { a: "2026-01-01T00:00:00Z" } };
    const params = { query: { since: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)), days: [new Date(Date.UTC(2026, 0, 2)), "2026-01-03"] }, body };
    const { params: sent, issues } = dateConversion(request).toText(params);
    expect(issues).toEqual([]);
    expect(sent).toEqual({
      query: { since: "2026-01-02T03:04:05.006Z", days: ["2026-01-02", "2026-01-03"] },
      // A Date where the contract has no date is left for the validators to refuse.
      body: { at: "2026-06-02T01:30:00.000Z", day: "2026-06-02", label: new Date(0), tags: { a: "2026-01-01T00:00:00Z" } },
    });
    expect(params.query.since).toBeInstanceOf(Date);
    expect(body.at).toBeInstanceOf(Date);
  });

  it("writes the Dates of the branch a discriminator names, and leaves a branch it does not name", () => {
    const request: DatePlace = { properties: { body: { discriminator: { property: "type", cases: { photo: { properties: { takenAt: "date-time" } } } } } } };
    const at = new Date(Date.UTC(2026, 2, 1));
    expect(dateConversion(request).toText({ body: { type: "photo", takenAt: at } }).params).toEqual({ body: { type: "photo", takenAt: "2026-03-01T00:00:00.000Z" } });
    expect(dateConversion(request).toText({ body: { type: "clip", takenAt: at } }).params).toEqual({ body: { type: "clip", takenAt: at } });
  });

  it("keeps a member named __proto__ a member, and refuses an invalid Date by its path", () => {
    const request: DatePlace = { properties: { body: { additional: "date-time" } } };
    const given = { body: Object.defineProperty({ x: new Date(Number.NaN) }, "__proto__", { value: new Date(0), enumerable: true }) };
    const { params, issues } = dateConversion(request).toText(given);
    expect(Object.getPrototypeOf(params.body)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(params.body, "__proto__")?.value).toBe("1970-01-01T00:00:00.000Z");
    expect(issues).toEqual([{ path: "/body/x", keyword: "format", message: "is an invalid Date, not a date-time", schemaPath: "" }]);
  });
});
