/** Rollout length (SPEC "Rollouts": 3 steps for robot control; fixed, zero-padded). Pure: no tfjs. */
export const ROLLOUT_STEPS = 3;
