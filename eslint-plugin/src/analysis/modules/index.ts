export { CALL, CONSTRUCT, findGlobalIdentifiers, findGlobalReferences, findImportedTypeReferences, findModuleReferences, findRequireCallsByText, findRequireCallsWhere, getCommonJsExportName, getDefaultMemberExportName, getDefaultMemberName, getRequiredModule, hasModuleImport, type TraceMap } from './module-references';
export { getModuleTextTrustedUntil, getModuleTextVersion, getSourcePath, isRelativeSpecifier, readModuleText, resolveModuleFile, setOpenModuleText } from './module-files';
export { parseModule } from './module-source';
export { findImportedReads, type ImportedRead, WHOLE_MODULE } from './relative-imports';
export { findImporters } from './module-importers';
export { getManifestDependencies, getManifestFolder, mayUsePackages } from './package-manifest';
export { isTestFilePath } from './test-files';
export { type FileChange, MODULE_FILE_GLOBS, type ModuleFileKind, noteModuleFileChanged } from './disk-changes';
export { describePlaces, type SourcePlace } from './source-places';
