/** The project's one seeded RNG lives in src/util/Rng.ts; this path stays for existing imports. */
export { Rng } from "../../util/Rng";
