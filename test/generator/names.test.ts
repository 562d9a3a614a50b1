/**
 * Names the generated code takes from the contract must not collide with the runtime's: an
 * operation named like a member of the client's base class, a client class named like a runtime
 * export or a global, a schema alias named like an exported error class.
 */
import { describe, expect, it } from "vitest";
import { clientClassName } from "../../generator/emit/client.ts";
import { runtimeExports } from "../../generator/emit/types.ts";
import { RESERVED_METHOD_NAMES, type ApiModel } from "../../generator/model.ts";
import { ClientCore } from "../../templates/runtime/client-core.ts";

describe("names the generator keeps for itself", () => {
  it("reserves every method of the client's base class, and then, for operations", () => {
    const members = Object.getOwnPropertyNames(ClientCore.prototype).filter((name) => name !== "constructor");
    expect(members.length).toBeGreaterThan(3);
    expect(members.filter((name) => !RESERVED_METHOD_NAMES.includes(name))).toEqual([]);
    expect(RESERVED_METHOD_NAMES).toContain("then");
  });

  it("reads the runtime's exports, so schema aliases avoid them", () => {
    expect(runtimeExports()).toEqual(expect.arrayContaining(["ApiError", "NotFoundError", "ClientCore", "ApiResult", "ValidationIssue", "RateLimitState"]));
  });

  it("gives the client class a Client suffix when its name would shadow a runtime export or a global", () => {
    const named = (packageName: string) => clientClassName({ packageName } as ApiModel);
    expect(named("gpu-cloud-client")).toBe("GpuCloudClient");
    expect(named("client-core")).toBe("ClientCoreClient");
    expect(named("api-result")).toBe("ApiResultClient");
    expect(named("@acme/promise")).toBe("PromiseClient");
    expect(named("record")).toBe("RecordClient");
  });
});
