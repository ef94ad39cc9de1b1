/** The action table lives in src/control/actions.ts (control imports nothing of the harness). */
export * from "../control/actions";
