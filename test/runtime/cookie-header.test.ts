/**
 * The `Cookie` header the client writes from cookie parameters (templates/runtime/headers.ts):
 * OpenAPI's `form` style, exploded or not, and RFC 6265's cookie-octets, everything else escaped.
 */
import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../templates/runtime/errors.ts";
import { appendCookies, cookieHeader, copyHeaders } from "../../templates/runtime/headers.ts";

describe("cookieHeader", () => {
  it("writes each parameter in form style, exploded by default", () => {
    const cookies = { id: 5, on: true, tags: ["a", "b"], point: { x: 1, y: 2 } };
    expect(cookieHeader(cookies, undefined)).toBe("id=5; on=true; tags=a; tags=b; x=1; y=2");
    expect(cookieHeader(cookies, { tags: { explode: false }, point: { explode: false } })).toBe("id=5; on=true; tags=a,b; point=x,1,y,2");
  });

  it("leaves out undefined and null values, empty arrays and undefined properties", () => {
    expect(cookieHeader({ a: undefined, b: null, c: [], d: { e: undefined, f: "g" } }, undefined)).toBe("f=g");
    expect(cookieHeader({}, undefined)).toBe("");
  });

  it("keeps cookie-octets as they are and percent-encodes the rest as UTF-8, `%` included", () => {
    const octets = "!#$&'()*+-./0123456789:<=>?@AZ[]^_`az{|}~";
    expect(cookieHeader({ v: octets }, undefined)).toBe(`v=${octets}`);
    expect(cookieHeader({ v: ' ",;\\%\t\u00e9\u{1F600}' }, undefined)).toBe("v=%20%22%2C%3B%5C%25%09%C3%A9%F0%9F%98%80");
  });

  it("escapes the comma inside a value, so a non-exploded list stays a list", () => {
    expect(cookieHeader({ list: ["a,b", "c"] }, { list: { explode: false } })).toBe("list=a%2Cb,c");
  });

  it("escapes `=` and what no value may hold in a name", () => {
    expect(cookieHeader({ "a=b c": "v" }, undefined)).toBe("a%3Db%20c=v");
  });

  it("refuses a lone surrogate, naming the parameter", () => {
    expect(() => cookieHeader({ session: "a\uD800" }, undefined)).toThrow(InvalidRequestError);
    expect(() => cookieHeader({ session: "a\uD800" }, undefined)).toThrow(expect.objectContaining({ field: "cookie.session" }));
  });
});

describe("appendCookies", () => {
  it("sets Cookie, or adds after the caller's under any spelling, and adds nothing for no cookie", () => {
    const headers: Record<string, string> = {};
    appendCookies(headers, "");
    expect(headers).toEqual({});
    appendCookies(headers, "a=1");
    expect(headers).toEqual({ cookie: "a=1" });
    // The caller's headers are copied under lower-case names first, as the client does.
    const caller: Record<string, string> = {};
    copyHeaders({ COOKIE: "s=x" }, caller);
    appendCookies(caller, "a=1; b=2");
    expect(caller).toEqual({ cookie: "s=x; a=1; b=2" });
  });
});
