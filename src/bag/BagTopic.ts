/** A topic a bag records (BagWriter.addTopic, Db3FileWriter): its own module so the writers share it without importing each other. */
export type BagTopic = {
  topic: string;
  /** "pkg/msg/Name" */
  type: string;
  /** ros2msg schema text with dependencies. */
  schemaText: string;
  /** rosbag2 offered_qos_profiles YAML string (see offeredQosProfilesYaml). */
  offeredQosProfiles: string;
  /** REP-2011 "RIHS01_..." hash, or "" when unknown. */
  typeHash?: string;
};
