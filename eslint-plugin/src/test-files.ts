export { isTestFilePath } from './analysis/modules';
