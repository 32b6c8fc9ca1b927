/**
 * The search of infrastructure code for the DocumentDB engine version, as hosts that see
 * files change (the language server) drive it: which files to watch, and a changed file
 * to take into account at once. Typed here, so that the package's declarations stay free
 * of the analysis's internal types.
 */
import { INFRA_FILE_GLOB as INFRA_GLOB, noteInfraFileChanged as noteChanged } from './analysis/infra';

/** A glob of the files that may state the engine version (Terraform, templates, CDK and Pulumi programs). */
export const INFRA_FILE_GLOB: string = INFRA_GLOB;

/**
 * A file changed, appeared or went: the folders whose engine version it may change are
 * searched again when next linted. True when any is (the host then lints its open
 * documents again).
 */
export const noteInfraFileChanged: (filePath: string) => boolean = noteChanged;
