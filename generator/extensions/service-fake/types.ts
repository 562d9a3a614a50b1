/**
 * The service-fake extension: a stateful fake of this service (pods, catalog, logs, registry
 * credentials, templates, model endpoint jobs) for the package's test kit. It follows the
 * service's semantics, not only its contract's shapes, so it applies only to a contract that has
 * the service's operations at the service's paths.
 */

/** The extension's name: its key in the model. */
export const SERVICE_FAKE_EXTENSION = "service-fake";

/** Its runtime folder under `templates/runtime/`. */
export const SERVICE_FAKE_RUNTIME = "testing/service-fake";

/** The paths (and methods) the fake answers as the service does: all of them must be in the contract. */
export const SERVICE_FAKE_OPERATIONS: ReadonlyArray<readonly [path: string, method: string]> = [
  ["/v2/pods", "get"],
  ["/v2/pods", "post"],
  ["/v2/pods/{id}", "get"],
  ["/v2/pods/{id}/action", "post"],
  ["/v2/pods/{id}/logs", "get"],
  ["/v2/catalog/gpus", "get"],
  ["/v2/catalog/gpus/{id}", "get"],
  ["/v2/registries", "post"],
  ["/v2/registries/{id}", "delete"],
  ["/v2/templates", "post"],
  ["/v2/{model_endpoint_id}/run", "post"],
  ["/v2/{model_endpoint_id}/status/{job_id}", "get"],
];

/** Nothing to read: the fake is the same for every contract it applies to. */
export type ServiceFakeModel = Record<string, never>;
