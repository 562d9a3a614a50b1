/**
 * The service-fake extension's emit-stage side: the runtime folder (`testing/service-fake`) and
 * `src/testing/service-fake.ts`, which binds the fake to the contract's models. Nothing reaches it
 * from the package's index: only its testing entry.
 */
import type { ExtensionOutput } from "../output.ts";
import { SERVICE_FAKE_RUNTIME } from "./types.ts";
import { readmeContribution } from "./readme.ts";
import type { ApiModel } from "../../model/types.ts";

const BINDING = `import { createServiceFake as createFake } from "../runtime/testing/service-fake/index.js";
import type { ServiceFake, ServiceFakeOptions } from "../runtime/testing/service-fake/index.js";
import { MODEL_ENDPOINTS, TERMINAL_JOB_STATUSES, withModelDefaults } from "../models.js";

export { FAKE_GPU_TYPES } from "../runtime/testing/service-fake/index.js";
export type { EndpointLimit, FakeJob, FakeJobPlan, FakeLogEvent, FakePod, FakePodsOptions, FakeRequestRecord, Quota, ServiceFake, ServiceFakeOptions } from "../runtime/testing/service-fake/index.js";

/**
 * A stateful fake of the service in process: give its \`fetch\` to the client. Pods move through
 * their states and bill on \`options.now\`'s clock, logs stream and resume, jobs queue, progress,
 * fail, time out and are priced from the contract's models, quotas answer 429.
 */
export function createServiceFake(options: ServiceFakeOptions = {}): ServiceFake {
  return createFake({ catalog: { endpoints: MODEL_ENDPOINTS, terminalStatuses: TERMINAL_JOB_STATUSES, withDefaults: withModelDefaults }, ...options });
}
`;

export function emitServiceFake(api: ApiModel): ExtensionOutput {
  return {
    files: [{ path: "src/testing/service-fake.ts", contents: BINDING }],
    runtimeFolders: [SERVICE_FAKE_RUNTIME],
    client: { imports: [], declarations: [], methods: [] },
    operationSpecs: { imports: [], entries: () => [] },
    limitsNote: () => undefined,
    indexExports: [],
    bin: undefined,
    readme: readmeContribution(api),
  };
}
