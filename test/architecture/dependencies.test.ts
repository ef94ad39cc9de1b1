/**
 * Every runtime dependency of package.json is imported by the code (a dependency used nowhere,
 * as mathjs was, is removed: docs/architecture.md), and package-lock.json lists the same ones.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { listProductionFiles, REPO_ROOT } from "./importGraph";

type PackageJson = { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
type PackageLock = { packages: Record<string, PackageJson> };

/**
 * Imported nowhere either, left for the lead to decide (issue 17): @mcap/nodejs (the bag code uses
 * @mcap/core with its own file readers), @tensorflow/tfjs-backend-cpu (@tensorflow/tfjs bundles it).
 */
const KNOWN_UNUSED = ["@mcap/nodejs", "@tensorflow/tfjs-backend-cpu"];

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as PackageJson;
const lock = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package-lock.json"), "utf8")) as PackageLock;

describe("dependencies", () => {
  it("every runtime dependency is imported by src/, nodes/ or sim/", () => {
    const text = listProductionFiles()
      .map((f) => fs.readFileSync(path.join(REPO_ROOT, f), "utf8"))
      .join("\n");
    const names = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})];
    const unused = names.filter((name) => !text.includes(`"${name}"`) && !text.includes(`"${name}/`));
    expect(unused).toEqual(KNOWN_UNUSED);
  });

  it("package-lock.json's root lists the same dependencies as package.json", () => {
    const root = lock.packages[""];
    expect(root?.dependencies).toEqual(pkg.dependencies);
    expect(root?.optionalDependencies).toEqual(pkg.optionalDependencies);
    expect(Object.keys(lock.packages).filter((p) => p.endsWith("node_modules/mathjs"))).toEqual([]);
  });
});
