export { clearInfraEngineVersions, findInfraEngineVersions, getInfraRoot, noteInfraFileChanged } from './find-engine-versions';
export type { FoundEngineVersion, InfraKind } from './found-version';
export { DEFAULT_WALK_LIMITS, INFRA_FILE_GLOB, type InfraWalkLimits } from './infra-files';
