/** A perception node on a FakeGraph with a tiny random Student accepting any image size (issue 14 tests). */
import { StudentDetector } from "../../../nodes/common/models/StudentDetector";
import { createPerceptionNode } from "../../../nodes/perception";
import { Student } from "../../../src/harness/models/Student";
import { activateIfLifecycle, type LaunchedNode } from "../../../src/ros/launch/NodeFactory";
import { FakeGraph } from "../FakeGraph";

export async function activePerceptionAnySize(): Promise<{ graph: FakeGraph; launched: LaunchedNode; dispose: () => void }> {
  const graph = new FakeGraph();
  const student = new Student({ channels: [4, 4, 4, 4], policyHidden: [8], seed: 3 });
  const launched = await createPerceptionNode({ createDetector: ({ width, height }) => new StudentDetector(student, width, height, { ownsModel: false }) })(graph, {
    name: "perception",
    namespace: "/",
    parameterOverrides: {},
    remappings: {},
  });
  await activateIfLifecycle(launched);
  return { graph, launched, dispose: () => student.dispose() };
}
