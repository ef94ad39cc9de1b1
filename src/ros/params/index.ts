export { ParameterFileError } from "./ParameterFileError";
export { parseParameterFile, parametersForNode, nodePatternMatches } from "./ParameterFile";
export type { ParameterFile, ParameterSection } from "./ParameterFile";
export { typeScalar } from "./scalarValue";
export type { ScalarResult } from "./scalarValue";
export { toOverrides, toParameterList } from "./TypedParameter";
export type { TypedParameterValue, TypedParameters } from "./TypedParameter";
export { parseParameterValue } from "./parseParameterValue";
