import { loadOpenCv, wasmHeapBytes, wasmHeapTop } from "../../src/vision/opencv";

describe("loadOpenCv", () => {
  test("resolves once with a usable module, not a thenable, and leaves the process error handlers as they were", async () => {
    const uncaught = process.listenerCount("uncaughtException");
    const rejection = process.listenerCount("unhandledRejection");
    const [a, b] = await Promise.all([loadOpenCv(), loadOpenCv()]);
    expect(a).toBe(b);
    expect(typeof a.Mat).toBe("function");
    expect((a as unknown as { then?: unknown }).then).toBeUndefined();
    expect(process.listenerCount("uncaughtException")).toBe(uncaught);
    expect(process.listenerCount("unhandledRejection")).toBe(rejection);
    const m = new a.Mat(4, 4, a.CV_8UC1);
    expect(m.rows).toBe(4);
    m.delete();
    expect(wasmHeapBytes(a)).toBeGreaterThan(0);
    // The allocation probe returns to the same address when nothing was leaked in between.
    const top = wasmHeapTop(a);
    const leak = new a.Mat(512, 512, a.CV_32FC1); // 1 MiB
    expect(wasmHeapTop(a)).toBeGreaterThan(top);
    leak.delete();
    expect(wasmHeapTop(a)).toBe(top);
  });
});
