/** rosbag2 bags (MCAP and sqlite3): the public face of src/bag. See docs/bag.md. */
export { Bag, defaultSchemaLookup, type OpenBagOptions, type StorageId } from "./BagReader";
export { BagWriter, DB3_MIN_SPLIT_BYTES, metadataTableYaml, type BagTopic, type BagWriterOptions } from "./BagWriter";
export { Db3FileWriter, type Db3FileWriterOptions } from "./Db3FileWriter";
export { DB3_SCHEMA_VERSION, DB3_CREATE_STATEMENTS, DB3_PRESET_PRAGMAS, type Db3Preset } from "./db3Schema";
export { BagRecorder, type BagRecorderOptions, type RawTopicMessage, type RawTopicSource } from "./BagRecorder";
export { parseBagMetadata, stringifyBagMetadata, METADATA_VERSION, type BagMetadata, type BagTopicInfo, type BagFileInfo } from "./BagMetadata";
export type { BagFileSystem, Db3Connection, Db3Database, Db3Statement, Db3Value, ReadableFile, WritableFile } from "./BagStorage";
export { MessageDecoder } from "./MessageDecoder";
export { decodeItems, type DecodedBagItem } from "./decodeItems";
export { recoverMcap, type RecoverOptions, type RecoverResult } from "./recoverMcap";
export { playMessages, timerPlayClock, type PlayClock, type PlayOptions, type PlayResult, type PlaySink } from "./PlayScheduler";
export { playBag, encodeClock, type PlayBagOptions, type RawPublishTarget } from "./playBag";
export { replayBag, settleGraph, type LockStepGraph, type ReplayOptions, type ReplayResult } from "./replayBag";
export {
  compareMessageStreams,
  formatDifferences,
  type CompareOptions,
  type CompareResult,
  type MessageDifference,
  type StreamMessage,
} from "./compareMessageStreams";
export { formatBagInfo, formatFileSize, formatTimePoint } from "./formatBagInfo";
export { summarizeBag, bagSizeBytes } from "./summarizeBag";
export { offeredQosProfilesYaml, parseOfferedQosProfiles } from "./offeredQosProfiles";
export { commonSchemaText, commonDefinition } from "./commonDefinitions";
export { ros2MsgSchemaText, ROS2MSG_SEPARATOR } from "./ros2MsgSchema";
export { zstdChunkCompressor, type ChunkCompressor } from "./zstdChunkCompressor";
export { BagError, type BagChannel, type BagMessage, type BagReadItem, type BagReadOptions, type RawBagMessage } from "./types";
