/**
 * The environment's own reward for a drone flight step, defined once here (SPEC "Rollouts": each
 * step is (s, a, r, s') with the environment's own reward, no shaping; seed section 3.2 warns
 * that a shaped dense reward taught its Harness the wrong notion of risk).
 *
 * The task: reach the scenario's goal without touching anything.
 *   collision with a wire, branch, pole/trunk or the ground  -> -1, episode ends
 *   goal reached                                              -> +1, episode ends
 *   every other step (including the step that times out)      ->  0
 * There is no progress term, no time penalty and no distance-to-obstacle term.
 */
export const COLLISION_REWARD = -1;
export const GOAL_REWARD = 1;
export const STEP_REWARD = 0;

export type StepEvent = { type: "collision" } | { type: "goal" } | { type: "running" } | { type: "timeout" };

export function environmentReward(event: StepEvent): { reward: number; done: boolean } {
  switch (event.type) {
    case "collision":
      return { reward: COLLISION_REWARD, done: true };
    case "goal":
      return { reward: GOAL_REWARD, done: true };
    case "timeout":
      return { reward: STEP_REWARD, done: true };
    case "running":
      return { reward: STEP_REWARD, done: false };
  }
}
