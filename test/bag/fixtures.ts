/** Paths of the real rosbag2 test bags (../shared/fixtures/rosbag2, see its README.md). */
import * as path from "node:path";

export const ROSBAG2_FIXTURES = path.resolve(__dirname, "../../../shared/fixtures/rosbag2");
export const TALKER_MCAP = path.join(ROSBAG2_FIXTURES, "talker-mcap");
export const TALKER_SQLITE3 = path.join(ROSBAG2_FIXTURES, "talker-sqlite3");
