/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/src", "<rootDir>/nodes", "<rootDir>/sim", "<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // Type checking runs once in `npm run typecheck`; ts-jest only transpiles (isolatedModules) so
  // the suite stays fast on two cores.
  transform: { "^.+\\.ts$": ["<rootDir>/test/jest/moduleScopeGlobals.js", { isolatedModules: true, diagnostics: false }] },
  moduleFileExtensions: ["ts", "js", "json"],
  testTimeout: 120000,
  maxWorkers: 2,
};
