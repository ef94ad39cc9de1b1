export { DdsGraph } from "./DdsGraph";
export type { DdsGraphOptions } from "./DdsGraph";
export { DdsParticipant, LOOPBACK_CONFIG, loopbackConfig, rosDomainId } from "./DdsParticipant";
export { CYCLONE_UNAVAILABLE, loadCyclone } from "./cyclone";
export { ddsTopicName, ddsTypeName, rosTopicName, rosTypeName } from "./ddsNames";
export { topicOps } from "./topicOps";
