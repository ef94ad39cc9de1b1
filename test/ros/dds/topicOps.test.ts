import { defaultRegistry } from "../../../src/ros/msgs";
import { ddsTopicName, ddsTypeName, rosTopicName, rosTypeName, topicOps } from "../../../src/ros/dds";

// Opcodes from Cyclone 0.10's dds/ddsc/dds_opcodes.h; the expected programs are what idlc 0.10.2
// generates for the same IDL (run `idlc` on test/ros/dds/peer/ros_types.idl), with nested structs
// written inline instead of through DDS_OP_TYPE_EXT (the same CDR stream) and offsets 0.
const ADR = 0x01000000;
const T = (v: number): number => v << 16;
const S = (v: number): number => v << 8;
const [BY1, BY4, BY8, STR, SEQ, ARR, STU, BLN] = [1, 3, 4, 5, 7, 8, 10, 14];
const FP = 2;
const SGN = 4;
const RTS = 0;

describe("ROS 2 names on the DDS wire (rmw_cyclonedds_cpp)", () => {
  it("maps topics and types both ways", () => {
    expect(ddsTopicName("/camera/image_raw")).toBe("rt/camera/image_raw");
    expect(rosTopicName("rt/cmd_vel")).toBe("/cmd_vel");
    expect(rosTopicName("DCPSParticipant")).toBeUndefined();
    expect(ddsTypeName("geometry_msgs/msg/TwistStamped")).toBe("geometry_msgs::msg::dds_::TwistStamped_");
    expect(rosTypeName("sensor_msgs::msg::dds_::Image_")).toBe("sensor_msgs/msg/Image");
    expect(() => ddsTopicName("cmd_vel")).toThrow('topic "cmd_vel" is not fully qualified');
  });
});

describe("topicOps: Cyclone serializer programs from .msg definitions", () => {
  const registry = defaultRegistry();
  const lookup = (t: string): ReturnType<typeof registry.definition> => registry.definition(t);

  it("std_msgs/String is one string", () => {
    expect([...topicOps("std_msgs/msg/String", lookup).ops]).toEqual([ADR | T(STR), 0, RTS]);
  });

  it("sensor_msgs/Image: header inline (time = int32, uint32), then the fields in order", () => {
    expect([...topicOps("sensor_msgs/msg/Image", lookup).ops]).toEqual([
      ADR | T(BY4) | SGN, 0, ADR | T(BY4), 0, ADR | T(STR), 0,
      ADR | T(BY4), 0, ADR | T(BY4), 0, ADR | T(STR), 0, ADR | T(BY1), 0, ADR | T(BY4), 0,
      ADR | T(SEQ) | S(BY1), 0,
      RTS,
    ]);
  });

  it("fixed arrays carry their length; a sequence of structs jumps to its element program", () => {
    const info = [...topicOps("sensor_msgs/msg/CameraInfo", lookup).ops];
    // double d[] (sequence), double k[9] (array of 9).
    expect(info).toContain(ADR | T(SEQ) | S(BY8) | FP);
    const k = info.indexOf(ADR | T(ARR) | S(BY8) | FP);
    expect(info[k + 2]).toBe(9);
    const diag = [...topicOps("diagnostic_msgs/msg/DiagnosticArray", lookup).ops];
    const seq = diag.indexOf(ADR | T(SEQ) | S(STU));
    const jump = (diag[seq + 3] ?? 0) & 0xffff;
    expect((diag[seq + 3] ?? 0) >>> 16).toBe(4);
    // The element program (DiagnosticStatus: byte level, string name, ...) starts after the main RTS.
    expect(diag[seq + 4]).toBe(RTS);
    expect(diag[seq + jump]).toBe(ADR | T(BY1));
    expect(diag[seq + jump + 2]).toBe(ADR | T(STR));
  });

  it("bool and empty messages", () => {
    expect([...topicOps("std_msgs/msg/Bool", lookup).ops]).toEqual([ADR | T(BLN), 0, RTS]);
    // rosidl_generator_dds_idl's `uint8 structure_needs_at_least_one_member`.
    expect([...topicOps("std_msgs/msg/Empty", lookup).ops]).toEqual([ADR | T(BY1), 0, RTS]);
  });
});
