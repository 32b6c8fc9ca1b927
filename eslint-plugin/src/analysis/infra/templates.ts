import { isMap, isScalar, LineCounter, parseDocument, type Node, type YAMLMap } from 'yaml';
import type { FoundEngineVersion, InfraKind } from './found-version';
import { TERRAFORM_CLUSTER_TYPES } from './terraform';

/**
 * Engine versions in templates, YAML or JSON (JSON is read as YAML, which gives lines):
 *
 * - CloudFormation and SAM: `Resources.<name>` of `Type: AWS::DocDB::DBCluster`, its
 *   `Properties.EngineVersion`; also under `resources.Resources` (the Serverless
 *   Framework's `serverless.yml`).
 * - Pulumi YAML: `resources.<name>` of `type: aws:docdb:Cluster` or `aws:docdb:GlobalCluster`,
 *   its `properties.engineVersion`.
 * - Terraform's JSON syntax (`*.tf.json`): `resource.aws_docdb_cluster.<name>.engine_version`.
 *
 * Only a plain value counts: `!Ref EngineVersion`, `{ "Ref": … }`, `${var.x}` are decided
 * when the stack is deployed. CloudFormation's short tags (`!Ref`, `!Sub`, `!GetAtt`…) are
 * unknown to a YAML parser: it keeps them on their nodes and warns, and a tagged value is
 * not read. Aliases are not expanded (the nodes are read as written), so a file costs
 * time in proportion to its length.
 */

const CLOUDFORMATION_TYPE = 'AWS::DocDB::DBCluster';
const PULUMI_TYPES: ReadonlySet<string> = new Set(['aws:docdb:Cluster', 'aws:docdb:GlobalCluster']);

/** A template that may declare a cluster names one of these (checked before parsing). */
export const TEMPLATE_MARKER = /AWS::DocDB::DBCluster|aws:docdb:(?:Global)?Cluster|aws_docdb_(?:global_)?cluster/;

/** Deeper than this, a file is no template (they nest a dozen levels) and is not parsed. */
const MAX_FLOW_DEPTH = 64;
const MAX_INDENT = 256;

export function findTemplateEngineVersions(text: string, file: string): FoundEngineVersion[] {
  if (!TEMPLATE_MARKER.test(text) || isTooDeep(text)) return [];
  const lineCounter = new LineCounter();
  let contents: unknown;
  try {
    const document = parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: false, strict: false });
    contents = document.contents;
  } catch {
    return [];
  }
  if (!isMap(contents)) return [];
  const found: FoundEngineVersion[] = [];
  const add = (node: Node | undefined, kind: InfraKind, resource: string) => {
    const version = getPlainValue(node);
    if (version !== undefined && node?.range) found.push({ version, file, line: lineCounter.linePos(node.range[0]).line, kind, resource });
  };

  const cloudFormation = [getMap(contents, 'Resources'), getMap(getMap(contents, 'resources'), 'Resources')];
  for (const resources of cloudFormation) {
    for (const resource of getMapValues(resources)) {
      if (getPlainValue(getNode(resource, 'Type')) === CLOUDFORMATION_TYPE) add(getNode(getMap(resource, 'Properties'), 'EngineVersion'), 'cloudformation', CLOUDFORMATION_TYPE);
    }
  }
  for (const resource of getMapValues(getMap(contents, 'resources'))) {
    const type = getPlainValue(getNode(resource, 'type'));
    if (type !== undefined && PULUMI_TYPES.has(type)) add(getNode(getMap(resource, 'properties'), 'engineVersion'), 'pulumi', type);
  }
  const terraform = getMap(contents, 'resource');
  for (const type of TERRAFORM_CLUSTER_TYPES) {
    for (const resource of getMapValues(getMap(terraform, type))) add(getNode(resource, 'engine_version'), 'terraform', type);
  }
  return found;
}

/**
 * Nesting that no template has: flow collections (`[[[[…`) or block ones (indentation,
 * `- - - …`) deeper than the limits above. The YAML parser's time grows fast with depth
 * and deep recursion can exhaust the stack, so such a file is not handed to it; counted
 * in one pass, without regard to quotes (a template's strings do not hold 64 brackets).
 */
function isTooDeep(text: string): boolean {
  let flowDepth = 0;
  let column = 0;
  let inIndent = true;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 10) {
      column = 0;
      inIndent = true;
      continue;
    }
    if (inIndent) {
      // Leading spaces and the compact indicators `- `, `? `, `: ` open a block level each.
      const next = text.charCodeAt(index + 1);
      if (code === 32 || code === 9 || ((code === 45 || code === 63 || code === 58) && (next === 32 || next === 9))) {
        if (++column > MAX_INDENT) return true;
        continue;
      }
      inIndent = false;
    }
    if (code === 91 || code === 123) {
      if (++flowDepth > MAX_FLOW_DEPTH) return true;
    } else if ((code === 93 || code === 125) && flowDepth > 0) {
      flowDepth--;
    }
  }
  return false;
}

function getNode(map: YAMLMap | undefined, key: string): Node | undefined {
  if (!map) return undefined;
  for (const pair of map.items) {
    if (isScalar(pair.key) && pair.key.value === key) return (pair.value ?? undefined) as Node | undefined;
  }
  return undefined;
}

function getMap(map: YAMLMap | undefined, key: string): YAMLMap | undefined {
  const node = getNode(map, key);
  return isMap(node) ? node : undefined;
}

function getMapValues(map: YAMLMap | undefined): YAMLMap[] {
  if (!map) return [];
  return map.items.map((pair) => pair.value).filter((value): value is YAMLMap => isMap(value));
}

/**
 * A scalar's text as written, when it carries no tag: `5.0` stays "5.0" (YAML would read
 * the number 5). Undefined for tagged values (`!Ref …`), collections and empty values.
 */
function getPlainValue(node: Node | undefined | null): string | undefined {
  if (!isScalar(node) || (node.tag !== undefined && !node.tag.startsWith('tag:yaml.org,2002:'))) return undefined;
  if (typeof node.value === 'string') return node.value;
  if (typeof node.value === 'number' && typeof node.source === 'string') return node.source;
  return undefined;
}
