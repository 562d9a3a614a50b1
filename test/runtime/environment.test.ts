/**
 * The client's environment variables where the runtime guards them: Deno without `--allow-env` (a
 * permission queried without prompting) and a `process.env` that throws on access count as unset.
 * The real Deno runs it in test/publish/runtimes.test.ts, without `--allow-env`.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { readEnvironment } from "../../templates/runtime/client-options.ts";

const VARIABLE = "GPU_CLOUD_ENVIRONMENT_TEST";

afterEach(() => {
  vi.unstubAllGlobals();
  delete process.env[VARIABLE];
});

describe("readEnvironment", () => {
  it("reads a variable, trimmed, an empty one as unset", () => {
    process.env[VARIABLE] = "  value ";
    expect(readEnvironment(VARIABLE)).toBe("value");
    process.env[VARIABLE] = " ";
    expect(readEnvironment(VARIABLE)).toBeUndefined();
  });

  it("in Deno, reads only a variable the program may read, asking without a prompt", () => {
    process.env[VARIABLE] = "value";
    const asked: unknown[] = [];
    const deno = (state: string) => ({
      permissions: {
        querySync: (descriptor: unknown) => {
          asked.push(descriptor);
          return { state };
        },
      },
    });
    vi.stubGlobal("Deno", deno("prompt"));
    expect(readEnvironment(VARIABLE)).toBeUndefined();
    vi.stubGlobal("Deno", deno("denied"));
    expect(readEnvironment(VARIABLE)).toBeUndefined();
    vi.stubGlobal("Deno", deno("granted"));
    expect(readEnvironment(VARIABLE)).toBe("value");
    expect(asked).toEqual(Array(3).fill({ name: "env", variable: VARIABLE }));
  });

  it("counts a variable as unset when reading it throws (a permission checked on access)", () => {
    const env = new Proxy({}, {
      get() {
        throw new Error(`Requires env access to "${VARIABLE}"`);
      },
    });
    vi.stubGlobal("process", { env });
    expect(readEnvironment(VARIABLE)).toBeUndefined();
  });

  it("in a browser (no process), finds nothing", () => {
    vi.stubGlobal("process", undefined);
    expect(readEnvironment(VARIABLE)).toBeUndefined();
  });
});
