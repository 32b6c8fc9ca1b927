// Everything that needs ESLint, the TypeScript parser or the plugin. The server imports
// this module dynamically once `initialize` has been answered, so an editor gets its
// `initialize` result without waiting for some 15 MB of JavaScript to load.
export { getFixAllAction, getQuickFixes, toTextEdit, toWorkspaceEdit } from './code-actions';
export { findSameDiagnostic, hasDeferredFix, readDiagnosticData, toDiagnostics, toPublishedDiagnostics } from './diagnostics';
export { getHover } from './hover';
export { DocumentLinter, getLintTarget } from './lint';
export { getFilePath } from './file-paths';
export { INFRA_FILE_GLOB, MODULE_FILE_GLOBS, noteInfraFileChanged, noteModuleFileChanged, setOpenModuleText } from 'eslint-plugin-retry-safety';
export { ProjectConfigs, fixWithProjectConfig, lintWithProjectConfig, type ProjectConfig } from './project-config';
