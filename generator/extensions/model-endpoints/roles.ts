/**
 * `x-model-endpoint-role` on operations, and the marks that go with the roles
 * (`x-server-wait` on runsync's wait parameter, `x-result-retention-seconds` on a submitting
 * operation): each read and checked, a stray or misplaced one refused with its pointer.
 */
import { ContractError } from "../../common/errors.ts";
import type { LoadedContract } from "../../load/index.ts";
import type { OperationModel, ParameterModel } from "../../model/types.ts";
import { readResultRetention } from "./result-retention.ts";
import { ENDPOINT_ROLES, type EndpointRole, type ServerWait } from "./types.ts";

export interface RoleMarks {
  roles: Partial<Record<EndpointRole, OperationModel>>;
  resultRetentionSeconds: Partial<Record<EndpointRole, number>>;
  serverWait?: ServerWait;
  /** Pointer of the first `x-server-wait`, to refuse it when no model endpoint could fill it. */
  serverWaitPointer?: string;
}

/** Every operation's role and marks; each role belongs to one operation. */
export function readRoleMarks(contract: LoadedContract, operations: readonly OperationModel[]): RoleMarks {
  const marks: RoleMarks = { roles: {}, resultRetentionSeconds: {} };
  for (const operation of operations) {
    const object = contract.at<Record<string, unknown>>(operation.pointer) ?? {};
    const role = readRole(object, operation.pointer);
    if (role !== undefined) {
      const earlier = marks.roles[role];
      if (earlier !== undefined) {
        throw new ContractError(`${operation.pointer}/x-model-endpoint-role`, `a second operation with x-model-endpoint-role "${role}" (the first is ${earlier.pointer}); each role belongs to one operation`);
      }
      marks.roles[role] = operation;
    }
    const retention = readResultRetention(object, operation.pointer, role);
    if (retention !== undefined) marks.resultRetentionSeconds[role!] = retention;
    // Every mark is checked, an overridden path-level parameter's too; those of the parameters sent count.
    const marked = new Set(declaredParameters(contract, operation).flatMap(({ parameter, pointer }) => (serverWaitMark(contract, parameter, pointer) ? [pointer] : [])));
    const waits = operation.parameters.filter((parameter) => marked.has(parameter.pointer)).map((parameter) => serverWaitOf(contract, parameter));
    if (waits.length === 0) continue;
    if (role !== "runsync") throw new ContractError(`${waits[0]!.pointer}/x-server-wait`, 'x-server-wait is only for the operation with x-model-endpoint-role "runsync"');
    if (waits.length > 1) throw new ContractError(`${waits[1]!.pointer}/x-server-wait`, "an operation has one server wait; this is a second");
    marks.serverWait = waits[0]!.wait;
    marks.serverWaitPointer = waits[0]!.pointer;
  }
  return marks;
}

function readRole(operation: Record<string, unknown>, at: string): EndpointRole | undefined {
  const role = operation["x-model-endpoint-role"];
  if (role === undefined) return undefined;
  if (!(ENDPOINT_ROLES as readonly unknown[]).includes(role)) {
    throw new ContractError(`${at}/x-model-endpoint-role`, `must be one of ${ENDPOINT_ROLES.map((r) => JSON.stringify(r)).join(", ")}, not ${JSON.stringify(role)}`);
  }
  return role as EndpointRole;
}

/** The operation's parameters as written (its path item's too, overridden ones included), each with its pointer. */
function declaredParameters(contract: LoadedContract, operation: OperationModel): Array<{ parameter: Record<string, unknown>; pointer: string }> {
  const itemPointer = operation.pointer.slice(0, operation.pointer.lastIndexOf("/"));
  return [itemPointer, operation.pointer].flatMap((at) => {
    const list: unknown = contract.at<Record<string, unknown>>(at)?.["parameters"];
    return Array.isArray(list)
      ? list.map((raw, index) => {
          const { value, pointer } = contract.deref<Record<string, unknown>>(raw, `${at}/parameters/${index}`);
          return { parameter: value ?? {}, pointer };
        })
      : [];
  });
}

/** Whether a parameter as written carries `x-server-wait: true`, its value and place checked. */
function serverWaitMark(contract: LoadedContract, parameter: Record<string, unknown>, where: string): boolean {
  const flag: unknown = parameter["x-server-wait"];
  if (flag === undefined || flag === false) return false;
  if (flag !== true) throw new ContractError(`${where}/x-server-wait`, "x-server-wait must be true or false");
  if (parameter["in"] !== "query") throw new ContractError(`${where}/x-server-wait`, "only a query parameter can carry the server's wait");
  const { value: schema, pointer: schemaAt } = contract.deref<any>(parameter["schema"], `${where}/schema`);
  const { minimum, maximum } = schema ?? {};
  if (schema?.type !== "integer" || !Number.isSafeInteger(minimum) || !Number.isSafeInteger(maximum) || minimum < 0 || minimum > maximum) {
    throw new ContractError(schemaAt, "the server's wait (x-server-wait) needs an integer schema with a minimum and a maximum, in milliseconds");
  }
  return true;
}

/** The wait of a parameter sent with the call whose mark was checked: its name and limits (milliseconds). */
function serverWaitOf(contract: LoadedContract, parameter: ParameterModel): { wait: ServerWait; pointer: string } {
  const schema = contract.deref<any>(contract.at<any>(parameter.pointer).schema, `${parameter.pointer}/schema`).value;
  return { wait: { parameter: parameter.name, minimum: schema.minimum, maximum: schema.maximum }, pointer: parameter.pointer };
}

/**
 * The shape each role's per-model call needs: run and runsync take the model id as their one path
 * parameter and a body with `input`; the calls on one job take the model id, then the job id; the
 * calls on the whole endpoint take the model id only, and no required body.
 */
export function checkRoleShapes(roles: RoleMarks["roles"]): void {
  for (const [role, operation] of Object.entries(roles) as Array<[EndpointRole, OperationModel]>) {
    const pathParameters = operation.parameters.filter((p) => p.in === "path").length;
    if ((role === "run" || role === "runsync") && (pathParameters !== 1 || !operation.requestBody)) {
      throw new ContractError(operation.pointer, `an operation with x-model-endpoint-role "${role}" needs exactly one path parameter (the model id) and a request body with \`input\``);
    }
    if ((role === "status" || role === "cancel" || role === "retry" || role === "stream") && pathParameters !== 2) {
      throw new ContractError(operation.pointer, `an operation with x-model-endpoint-role "${role}" needs exactly two path parameters (the model id, then the job id)`);
    }
    if ((role === "health" || role === "purge-queue") && (pathParameters !== 1 || operation.requestBody?.required)) {
      throw new ContractError(operation.pointer, `an operation with x-model-endpoint-role "${role}" needs exactly one path parameter (the model id) and no required request body`);
    }
  }
}
