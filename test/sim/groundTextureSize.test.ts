import { createSimulation } from "../../sim";
import { fastScenario } from "./fixtures";

describe("groundTextureSize option", () => {
  it("builds a small ground tile with the same structures, start and sun as the scenario's size", () => {
    const scenario = fastScenario("default", 256);
    const small = createSimulation(scenario, { seed: 4, groundTextureSize: 64 });
    const big = createSimulation(scenario, { seed: 4 });
    expect(small.world.ground.size).toBe(64);
    expect(small.world.ground.levels[0]!.length).toBe(64 * 64 * 3);
    expect(big.world.ground.size).toBe(256);
    expect(Array.from(small.world.segments.a)).toEqual(Array.from(big.world.segments.a));
    expect(small.world.start).toEqual(big.world.start);
    expect(small.world.sky.sunDir).toEqual(big.world.sky.sunDir);
    // The caller's scenario object is not modified.
    expect(scenario.ground.textureSize).toBe(256);
  });

  it("rejects a size that is not a power of two in [64, 4096], naming the value", () => {
    const scenario = fastScenario("default", 64);
    expect(() => createSimulation(scenario, { seed: 4, groundTextureSize: 100 })).toThrow("groundTextureSize=100, expected a power of two in [64, 4096]");
    expect(() => createSimulation(scenario, { seed: 4, groundTextureSize: 32 })).toThrow("groundTextureSize=32");
  });
});
