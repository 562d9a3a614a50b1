/**
 * The pod-budget extension's part of the model: where a pod's cost comes from before it is created
 * (`x-pod-cost` on the create operation) and when a pod is ready (`x-pod-readiness` on the read
 * operation). Each gives the package helpers of its own (`src/pods.ts`).
 */
import type { OperationModel } from "../../model/types.ts";

/** The extension's name: its key in the model, its runtime folder, its templates' folder. */
export const POD_BUDGET_EXTENSION = "pod-budget";

/** `x-pod-cost`: JSON pointers into the create body and into the price operation's answer. */
export interface PodCost {
  create: OperationModel;
  /** Answers one GPU type's prices; its one path parameter takes the type's id. */
  priceOperation: OperationModel;
  priceParameter: string;
  gpuTypeFrom: string;
  gpuCountFrom: string;
  defaultGpuCount: number;
  cloudFrom: string;
  defaultCloud: string;
  rates: Record<string, string>;
}

/** `x-pod-readiness`: where the read pod says its status and its ports. */
export interface PodReadiness {
  read: OperationModel;
  /** The read operation's one path parameter: the pod's id. */
  idParameter: string;
  statusFrom: string;
  ready: string[];
  failed: string[];
  portsFrom?: string;
  mappingsFrom?: string;
}

/**
 * The calls the terminal command's `pods` and `gpus` use besides the marked ones, found by where
 * they sit beside them (absent when the contract has none there).
 */
export interface PodCommandOperations {
  /** `GET` on the path where the create operation posts: the caller's pods. */
  list?: OperationModel;
  /** `POST <read path>/action` with a JSON body `{ action }`: start, stop, terminate. */
  action?: OperationModel;
  /** `GET` on the price operation's path without its last segment: every GPU type with its price. */
  gpuTypes?: OperationModel;
  /** Whether `gpuTypes` takes `include` and `product` (stock on request, as the catalog gives it). */
  gpuStockOnRequest: boolean;
  /** `GET <read path>/logs` answering `text/event-stream`: the pod's log stream (`pods logs`). */
  logs?: PodLogs;
}

/** The log stream operation and which of the filters `pods logs` knows it takes as query parameters. */
export interface PodLogs {
  operation: OperationModel;
  filters: Array<"tail" | "since" | "source">;
}

export interface PodBudgetModel {
  cost?: PodCost;
  readiness?: PodReadiness;
  commands: PodCommandOperations;
}
