import fc from "fast-check";

/**
 * Before every test file: `PROPERTY_SEED` replays a property failure as it was (its seed is printed
 * with the counterexample). Without it fast-check draws a new seed each run.
 */
const seed = process.env.PROPERTY_SEED;
if (seed) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: Number(seed) });
