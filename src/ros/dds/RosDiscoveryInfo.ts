import type { MessageRegistry } from "../msgs/MessageRegistry";
import type {
  rmw_dds_common__msg__Gid as Gid,
  rmw_dds_common__msg__NodeEntitiesInfo as NodeEntitiesInfo,
  rmw_dds_common__msg__ParticipantEntitiesInfo as ParticipantEntitiesInfo,
} from "../msgs/generated";
import type { QoSProfile } from "../graph/types";
import type { DdsParticipant, DdsWriter } from "./DdsParticipant";

/**
 * ROS 2's node graph on the wire, as rmw_cyclonedds_cpp publishes it (ros2/rmw_cyclonedds,
 * rmw_cyclonedds_cpp/src/rmw_node.cpp: `rmw_context_impl_s::init` creates the publisher,
 * `rmw_create_node` / `rmw_create_publisher` / `rmw_create_subscription` and their destroy
 * calls update rmw_dds_common's GraphCache and publish its message). Every participant publishes one
 * rmw_dds_common/msg/ParticipantEntitiesInfo: its GID and, per node, the GIDs of the node's DDS
 * readers and writers. `ros2 node list` (rmw_get_node_names) lists the nodes of these samples;
 * `ros2 topic info -v` attributes endpoints to nodes through the GIDs.
 */

/**
 * The DDS topic name as it is: rmw creates this publisher with avoid_ros_namespace_conventions =
 * true, so there is no "rt/" prefix (the DDS type name is still mangled:
 * rmw_dds_common::msg::dds_::ParticipantEntitiesInfo_).
 */
export const ROS_DISCOVERY_INFO_TOPIC = "ros_discovery_info";
export const PARTICIPANT_ENTITIES_INFO = "rmw_dds_common/msg/ParticipantEntitiesInfo";

/** rmw_cyclonedds_cpp's pubsub_qos for ros_discovery_info: reliable, transient_local, keep_last 1. */
export const ROS_DISCOVERY_INFO_QOS: QoSProfile = { history: "keep_last", depth: 1, reliability: "reliable", durability: "transient_local" };

/**
 * Bytes in rmw_dds_common/msg/Gid.data on ROS 2 Humble (RMW_GID_STORAGE_SIZE 24; Iron and Jazzy
 * changed it to 16). Humble is the distribution on Cyclone DDS 0.10, the version we load; a Jazzy
 * peer would not decode these samples (see docs/dds.md).
 */
export const GID_SIZE = 24;

/** One node of this participant and the GUIDs of its DDS endpoints. */
export type NodeEntities = {
  /** "/ns/name" */
  readonly fullyQualifiedName: string;
  readonly readers: readonly Uint8Array[];
  readonly writers: readonly Uint8Array[];
};

/** A DDS GUID (16 bytes) as a Humble Gid: copied into the first 16 bytes, the rest zero (rmw_cyclonedds_cpp convert_guid_to_gid). */
export function gidOf(guid: Uint8Array): Gid {
  if (guid.length > GID_SIZE) throw new RangeError(`gidOf: guid.length=${guid.length}, expected at most ${GID_SIZE}`);
  const data = new Uint8Array(GID_SIZE);
  data.set(guid);
  return { data };
}

/** "/ns/sub/name" -> { node_namespace: "/ns/sub", node_name: "name" }; "/name" -> namespace "/" (rcl's form). */
export function splitNodeName(fullyQualifiedName: string): { node_namespace: string; node_name: string } {
  const slash = fullyQualifiedName.lastIndexOf("/");
  if (slash < 0) throw new Error(`splitNodeName: "${fullyQualifiedName}" is not fully qualified (expected a leading "/")`);
  return { node_namespace: slash === 0 ? "/" : fullyQualifiedName.slice(0, slash), node_name: fullyQualifiedName.slice(slash + 1) };
}

/** The message one participant publishes: its GID and each node with its reader and writer GIDs. */
export function participantEntitiesInfo(participantGuid: Uint8Array, nodes: readonly NodeEntities[]): ParticipantEntitiesInfo {
  return {
    gid: gidOf(participantGuid),
    node_entities_info_seq: nodes.map(
      (n): NodeEntitiesInfo => ({ ...splitNodeName(n.fullyQualifiedName), reader_gid_seq: n.readers.map(gidOf), writer_gid_seq: n.writers.map(gidOf) }),
    ),
  };
}

/** rmw_cyclonedds_cpp's reader of ros_discovery_info: as the writer, but keep_all (rmw_node.cpp: "FIXME: keyed topics => KEEP_LAST and depth 1"). */
const READER_QOS: QoSProfile = { ...ROS_DISCOVERY_INFO_QOS, history: "keep_all", depth: 0 };

/** "/" + name, or "/ns" + "/" + name. */
function nodeFullName(info: NodeEntitiesInfo): string {
  return info.node_namespace === "/" ? `/${info.node_name}` : `${info.node_namespace}/${info.node_name}`;
}

/**
 * The ros_discovery_info writer and reader of one participant. `publish` writes the participant's
 * current nodes; a state equal to the last one written is not written again. Transient-local with
 * depth 1, so a participant that joins later gets the latest sample. The reader keeps the latest
 * sample of every other participant (ROS 2 processes included), for `node list`.
 */
export class RosDiscoveryInfo {
  readonly #participant: DdsParticipant;
  readonly #registry: MessageRegistry;
  readonly #writer: DdsWriter;
  /** Participant GUID (hex, 16 bytes) -> its nodes' fully qualified names, from its latest sample. */
  readonly #remote = new Map<string, string[]>();
  #last: Buffer | undefined;

  private constructor(participant: DdsParticipant, registry: MessageRegistry) {
    this.#participant = participant;
    this.#registry = registry;
    const options = { avoidRosNamespaceConventions: true };
    this.#writer = participant.createWriter(ROS_DISCOVERY_INFO_TOPIC, PARTICIPANT_ENTITIES_INFO, ROS_DISCOVERY_INFO_QOS, options);
    participant.createReader(ROS_DISCOVERY_INFO_TOPIC, PARTICIPANT_ENTITIES_INFO, READER_QOS, (bytes) => this.#received(bytes), options);
  }

  /**
   * The nodes other participants announce, of those still alive (`alive`: participant GUIDs in
   * hex, from DCPSParticipant; a participant that left keeps no nodes).
   */
  remoteNodeNames(alive: readonly string[]): string[] {
    const names = new Set<string>();
    for (const guid of alive) for (const n of this.#remote.get(guid) ?? []) names.add(n);
    return [...names].sort();
  }

  #received(bytes: Uint8Array): void {
    let info: ParticipantEntitiesInfo;
    try {
      info = this.#registry.deserialize<ParticipantEntitiesInfo>(PARTICIPANT_ENTITIES_INFO, bytes);
    } catch {
      // Not Humble's layout (Iron and Jazzy send 16-byte GIDs): those nodes stay unlisted.
      return;
    }
    const guid = Buffer.from(Uint8Array.from(info.gid.data).subarray(0, 16)).toString("hex");
    this.#remote.set(guid, info.node_entities_info_seq.map(nodeFullName));
  }

  /** The writer, or undefined when the registry does not hold rmw_dds_common (a custom registry without msgs/third_party). */
  static create(participant: DdsParticipant, registry: MessageRegistry): RosDiscoveryInfo | undefined {
    return registry.has(PARTICIPANT_ENTITIES_INFO) ? new RosDiscoveryInfo(participant, registry) : undefined;
  }

  publish(nodes: readonly NodeEntities[]): void {
    const bytes = Buffer.from(this.#registry.serialize(PARTICIPANT_ENTITIES_INFO, participantEntitiesInfo(this.#participant.guid, nodes)));
    if (this.#last?.equals(bytes) === true) return;
    this.#writer.write(bytes);
    this.#last = bytes;
  }
}
