import { formatFileSize, formatTimePoint } from "../../src/bag/formatBagInfo";

describe("ros2 bag info formatting (rosbag2_py format_bag_metadata.cpp)", () => {
  it("sizes: bytes without decimals, then KiB/MiB/GiB with one", () => {
    expect(formatFileSize(0)).toBe("0 B");
    expect(formatFileSize(1023)).toBe("1023 B");
    expect(formatFileSize(12880)).toBe("12.6 KiB"); // talker.mcap
    expect(formatFileSize(5 * 1024 * 1024 + 1)).toBe("5.0 MiB");
    expect(formatFileSize(3 * 1024 ** 3)).toBe("3.0 GiB");
  });

  it("time points: %b %e %Y %H:%M:%S.<ns> (<sec>.<ns>) in the given zone", () => {
    const t = 1585866235112411371n; // talker start: 2020-04-02 22:23:55.112411371 UTC
    expect(formatTimePoint(t, () => 0)).toBe("Apr  2 2020 22:23:55.112411371 (1585866235.112411371)");
    // two hours east of UTC crosses midnight into Apr 3; the epoch seconds do not change
    expect(formatTimePoint(t, () => 120)).toBe("Apr  3 2020 00:23:55.112411371 (1585866235.112411371)");
    expect(formatTimePoint(5n, () => 0)).toBe("Jan  1 1970 00:00:00.000000005 (0.000000005)");
  });
});
