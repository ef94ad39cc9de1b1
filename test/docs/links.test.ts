/**
 * The README and docs/ link to each other and to committed outputs (docs/results/...) by relative
 * paths and heading anchors; a renamed heading or a moved file breaks them silently on GitHub.
 * This checks every such link resolves (test/docs/markdownLinks.ts).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { brokenLinks, headingAnchors, headingSlug, linkTargets } from "./markdownLinks";

const ROOT = path.join(__dirname, "../..");

describe("Markdown links", () => {
  it("slugs headings as GitHub does", () => {
    expect(headingSlug("Set-up (two commands)")).toBe("set-up-two-commands");
    expect(headingSlug("The command line: `drone-harness`")).toBe("the-command-line-drone-harness");
    expect(headingSlug('Weight-averaged detectors, a "model soup" (eleventh session): kept')).toBe("weight-averaged-detectors-a-model-soup-eleventh-session-kept");
    expect(headingSlug("DDS: the ROS 2 wire without ROS (issue 15)")).toBe("dds-the-ros-2-wire-without-ros-issue-15");
    expect([...headingAnchors("# A\n## A\n```\n# A\n```\n### A b")]).toEqual(["a", "a-1", "a-b"]);
    expect(linkTargets("[x](a.md#b) and [y](http://e.org)\n```\n[z](c.md)\n```")).toEqual(["a.md#b", "http://e.org"]);
  });

  it("finds a missing file and a missing heading", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "links-"));
    try {
      fs.mkdirSync(path.join(dir, "docs"));
      fs.writeFileSync(path.join(dir, "docs/a.md"), "# Here\n[ok](#here) [self](a.md#here) [gone](b.md) [bad](#there) [web](https://x.org/#y)\n");
      expect(brokenLinks(dir, ["docs/a.md"])).toEqual([
        { file: "docs/a.md", target: "b.md", problem: "no such file" },
        { file: "docs/a.md", target: "#there", problem: "no such heading" },
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("every relative link of README.md and docs/*.md resolves", () => {
    const files = ["README.md", ...fs.readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
    expect(files.length).toBeGreaterThan(5);
    expect(brokenLinks(ROOT, files)).toEqual([]);
  });
});
