/** Policy Diagnostics training constants (SPEC "The Harness method" / "Co-evolution training"; seed 3.1, 3.3, 5.1). */
/** Finite-difference step for S_gt: perturb s_j by +-0.01 (SPEC, seed 3.1). */
export const SGT_EPSILON = 0.01;
/** Weight of ||S - S_gt||^2 in the harness loss: alpha = 0.05 (SPEC, seed 3.3). */
export const HARNESS_ALPHA = 0.05;
/** Harness loss weight relative to the student's: 0.15 (SPEC, seed 3.1). */
export const HARNESS_LOSS_WEIGHT = 0.15;
/** Entropy regularisation -beta * H(pi_corrected), beta = 0.01 (SPEC, seed 5.1). */
export const ENTROPY_BETA = 0.01;
/** Student (PPO) update period, harness frozen: every 100 steps (SPEC, seed 3.3). */
export const STUDENT_UPDATE_EVERY = 100;
/** Harness update period, student frozen: every 200 steps (SPEC, seed 3.3). */
export const HARNESS_UPDATE_EVERY = 200;
/** r is the probability of a negative reward within 3 steps (SPEC, seed 3.1). */
export const RISK_HORIZON_STEPS = 3;
