/**
 * @mcap/core and @mcap/support for this CommonJS package. Their package.json "types" condition
 * points at the ESM typings, so TypeScript (module Node16) refuses a plain `import` from a
 * CommonJS file although Node's "require" condition loads their CommonJS build. The types are
 * taken from the ESM typings (resolution-mode "import"), the values from `require`.
 */
import type * as McapCoreModule from "@mcap/core" with { "resolution-mode": "import" };
import type * as McapSupportModule from "@mcap/support" with { "resolution-mode": "import" };

/* eslint-disable @typescript-eslint/no-require-imports */
const core = require("@mcap/core") as typeof McapCoreModule;
const support = require("@mcap/support") as typeof McapSupportModule;
/* eslint-enable @typescript-eslint/no-require-imports */

export const McapIndexedReader = core.McapIndexedReader;
export type McapIndexedReader = McapCoreModule.McapIndexedReader;
export const McapStreamReader = core.McapStreamReader;
export type McapStreamReader = McapCoreModule.McapStreamReader;
export const McapWriter = core.McapWriter;
export const McapRecordBuilder = core.McapRecordBuilder;
export type McapWriter = McapCoreModule.McapWriter;
export type IReadable = McapCoreModule.IReadable;
export type IWritable = McapCoreModule.IWritable;
export type McapRecords = McapCoreModule.McapTypes.TypedMcapRecords;
export type McapRecord = McapCoreModule.McapTypes.TypedMcapRecord;
export type DecompressHandlers = McapCoreModule.McapTypes.DecompressHandlers;
export const loadDecompressHandlers = support.loadDecompressHandlers;
