/**
 * The subcommands of `drone-harness`, loaded lazily so that `drone-harness bag info` does not
 * pay for TensorFlow.js or OpenCV start-up. One file per subcommand under this folder.
 */
import type { CliCommand } from "../CliCommand";

export const COMMANDS: Record<string, { summary: string; load: () => Promise<CliCommand> }> = {
  // require (not import()): under module Node16 a CommonJS file's import() stays a real ESM
  // import, which needs a ".js" path and fails in jest without --experimental-vm-modules.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  bag: { summary: "rosbag2 bags: info, recover, record, play", load: async () => (require("./bag") as typeof import("./bag")).command },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  replay: { summary: "regression replay: a bag's inputs through a launch's nodes, outputs compared", load: async () => (require("./replay") as typeof import("./replay")).command },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  sim: { summary: "the main job (npm start): closed-loop flights harness on/off, table, bags, report.html; --headless: scripted flight, PNG frames", load: async () => (require("./sim") as typeof import("./sim")).command },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  gazebo: { summary: "export a scenario seed to a Gazebo SDF world + ros_gz_bridge config", load: async () => (require("./gazebo") as typeof import("./gazebo")).command },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  harness: { summary: "harness model facts: parameter counts of student and harness and their ratio", load: async () => (require("./harness") as typeof import("./harness")).command },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  train: { summary: "train teacher, BC student, harness and co-evolved student on the simulator", load: async () => (require("./train") as typeof import("./train")).command },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  dataset: { summary: "data stage: expert flights recorded (visible masks, near-threat cells) into a frame cache, on worker threads", load: async () => (require("./dataset") as typeof import("./dataset")).command },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  fit: { summary: "detector stage: train the teacher- or student-size detector (classes + near-threat logit) on a frame cache, with a validation curve", load: async () => (require("./fit") as typeof import("./fit")).command },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  "fit-harness": { summary: "harness stage of a co-evolution round: on-policy rollouts (worker threads), S_gt, region risk targets, spatial harness training", load: async () => (require("./fitHarness") as typeof import("./fitHarness")).command },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  "fit-harness-ppo": { summary: "PPO ablation of the harness stage: the harness as a per-region stochastic policy, updated on the environment's reward", load: async () => (require("./fitHarnessPpo") as typeof import("./fitHarnessPpo")).command },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  soup: { summary: "uniform weight average of detectors fine-tuned from one initialisation (model soup)", load: async () => (require("./soup") as typeof import("./soup")).command },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  transfer: { summary: "move the harness's State Encoder to a new scenario family and train adapter + diagnostics on few samples", load: async () => (require("./transfer") as typeof import("./transfer")).command },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  bound: { summary: "oracle upper bound of what a correction of the SPEC's form can change in flight (held-out seeds)", load: async () => (require("./bound") as typeof import("./bound")).command },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  eval: { summary: "compare teacher, BC, BC + harness, co-evolved + harness on test-split seeds", load: async () => (require("./eval") as typeof import("./eval")).command },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  detect: { summary: "run the student on PNG/JPEG photographs: wire probability maps + detections JSON", load: async () => (require("./detect") as typeof import("./detect")).command },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  "eval-real": { summary: "real photographs with wire ground truth: cell AP and 5 px F1 per set, Sobel baseline in the same run", load: async () => (require("./evalReal") as typeof import("./evalReal")).command },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  launch: { summary: "run a launch/*.launch.xml's drone_harness nodes in one process (embedded graph)", load: async () => (require("./launch") as typeof import("./launch")).command },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  topic: { summary: "topic list [-t] | echo <topic> [--once] | hz <topic>, against a running launch", load: async () => (require("./topic") as typeof import("./topic")).command },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  node: { summary: "node list, against a running launch", load: async () => (require("./node") as typeof import("./node")).command },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  param: { summary: "param get|set|list <node> ..., against a running launch", load: async () => (require("./param") as typeof import("./param")).command },
};
