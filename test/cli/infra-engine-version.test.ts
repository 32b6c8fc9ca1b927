// The DocumentDB engine version read from a repository's infrastructure code, with the
// real `eslint` CLI on small repositories on disk: one per kind of infrastructure code,
// several versions (no autofix), the setting that wins, and the setting that turns it off.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject, findingsOf, removeProjects, repo, runEslint, type JsonResult } from './project';

const RULE = 'retry-safety/mongo-retry-writes-connection-string';
const HOST = 'orders.cluster-c9akciq32.us-east-1.docdb.amazonaws.com:27017';
/** retryWrites=false: right before 8.0.2, to remove from 8.0.2 on. */
const URI_FALSE = `mongodb://app:s3cretPass@${HOST}/orders?tls=true&retryWrites=false`;
/** No retryWrites: right from 8.0.2 on, error 301 before. */
const URI_NONE = `mongodb://app:s3cretPass@${HOST}/orders?tls=true`;

function config(settings: Record<string, unknown> = {}): string {
  return `import tsParser from '@typescript-eslint/parser';
import retrySafety from 'eslint-plugin-retry-safety';

export default [
  { files: ['**/*.ts'], languageOptions: { parser: tsParser } },
  ...retrySafety.configs.recommended,
  { ...retrySafety.configs['connection-strings'], files: ['**/.env'] },
  { settings: { 'retry-safety': ${JSON.stringify(settings)} } },
];
`;
}

const client = (uri: string) => `import { MongoClient } from 'mongodb';\n\nexport const client = new MongoClient('${uri}');\n`;

type Message = JsonResult['messages'][number] & { fix?: unknown; suggestions?: Array<{ desc: string }> };

function lintProject(files: Record<string, string>, settings?: Record<string, unknown>) {
  const dir = createProject({ 'package.json': '{ "type": "module" }', 'eslint.config.js': config(settings), ...files }, 'eslint');
  const findings = (file: string) => findingsOf(runEslint(dir, ['.']), file) as Message[];
  const fix = (file: string) => {
    runEslint(dir, ['--fix', '.']);
    return readFileSync(path.join(dir, file), 'utf8');
  };
  return { dir, findings, fix };
}

beforeAll(() => {
  if (!existsSync(path.join(repo, 'eslint-plugin', 'dist', 'index.cjs'))) throw new Error('Build the plugin first: npm run build');
});
afterAll(removeProjects);
// Each test runs the eslint CLI once or twice: slower than the default timeout allows on a loaded machine.

describe('one engine version in the infrastructure code', { timeout: 120_000 }, () => {
  it('Terraform: 8.0.2 in infra/docdb.tf, retryWrites=false in code is removed, and the message says where 8.0.2 comes from', () => {
    const terraform = ['resource "aws_docdb_cluster" "orders" {', '  cluster_identifier = "orders"', '  engine             = "docdb"', '  engine_version     = "8.0.2"', '}', ''].join('\n');
    const project = lintProject({ 'infra/docdb.tf': terraform, 'src/db.ts': client(URI_FALSE) });
    const [finding, ...others] = project.findings('src/db.ts');
    expect(others).toEqual([]);
    expect(finding).toMatchObject({ ruleId: RULE, line: 3 });
    expect(finding!.message).toContain('DocumentDB 8.0.2 (from infra/docdb.tf:4) supports them');
    expect(finding!.message).not.toContain('s3cretPass');
    expect(project.fix('src/db.ts')).toBe(client(URI_FALSE.replace('&retryWrites=false', '')));
  });

  it('CloudFormation / SAM YAML with short-form tags: 5.0.0, retryWrites=false is added in .env', () => {
    const template = [
      "AWSTemplateFormatVersion: '2010-09-09'",
      'Transform: AWS::Serverless-2016-10-31',
      'Resources:',
      '  OrdersCluster:',
      '    Type: AWS::DocDB::DBCluster',
      '    Properties:',
      '      MasterUsername: !Ref DbUser',
      '      MasterUserPassword: !Sub "{{resolve:secretsmanager:${DbSecret}:SecretString:password}}"',
      '      DBSubnetGroupName: !GetAtt Subnets.Name',
      '      EngineVersion: 5.0.0',
      '',
    ].join('\n');
    const project = lintProject({ 'template.yaml': template, '.env': `DOCDB_URI=${URI_NONE}\n` });
    const [finding] = project.findings('.env');
    expect(finding!.message).toContain('DocumentDB 5.0.0 (from template.yaml:10) has no retryable writes');
    expect(project.fix('.env')).toBe(`DOCDB_URI=${URI_NONE}&retryWrites=false\n`);
  });

  it('CloudFormation JSON: 5.0.0, retryWrites: true in the options is set to false', () => {
    const template = JSON.stringify({ Resources: { Orders: { Type: 'AWS::DocDB::DBCluster', Properties: { EngineVersion: '5.0.0' } } } }, null, 2);
    const source = `import { MongoClient } from 'mongodb';\n\nexport const client = new MongoClient('${URI_NONE}', { retryWrites: true });\n`;
    const project = lintProject({ 'cfn/orders.template.json': template, 'src/db.ts': source });
    const messages = project.findings('src/db.ts').map((finding) => finding.message);
    expect(messages).toEqual([expect.stringContaining('DocumentDB 5.0.0 (from cfn/orders.template.json:6) has no retryable writes')]);
    expect(project.fix('src/db.ts')).toBe(source.replace('retryWrites: true', 'retryWrites: false'));
  });

  it('AWS CDK: docdb.DatabaseCluster with engineVersion 8.0.2 (an RDS cluster beside it does not count)', () => {
    const stack = [
      "import * as cdk from 'aws-cdk-lib';",
      "import * as docdb from 'aws-cdk-lib/aws-docdb';",
      "import * as rds from 'aws-cdk-lib/aws-rds';",
      '',
      'export class DataStack extends cdk.Stack {',
      '  constructor(scope: cdk.App, id: string) {',
      '    super(scope, id);',
      "    new rds.DatabaseCluster(this, 'Pg', { engineVersion: '15.4' } as never);",
      "    new docdb.DatabaseCluster(this, 'Orders', {",
      "      masterUser: { username: 'app' },",
      "      engineVersion: '8.0.2',",
      '    } as never);',
      '  }',
      '}',
      '',
    ].join('\n');
    const project = lintProject({ 'lib/data-stack.ts': stack, 'src/db.ts': client(URI_FALSE) });
    expect(project.findings('src/db.ts').map((finding) => finding.message)).toEqual([expect.stringContaining('8.0.2 (from lib/data-stack.ts:11) supports them')]);
  });

  it('Pulumi: aws.docdb.Cluster with engineVersion from a const', () => {
    const program = ["import * as aws from '@pulumi/aws';", '', "const engineVersion = '5.0.0';", '', "export const orders = new aws.docdb.Cluster('orders', { engineVersion, masterUsername: 'app' });", ''].join('\n');
    const project = lintProject({ 'infra/index.ts': program, '.env': `DOCDB_URI=${URI_NONE}\n` });
    expect(project.findings('.env').map((finding) => finding.message)).toEqual([expect.stringContaining('5.0.0 (from infra/index.ts:3) has no retryable writes')]);
  });

  it('does not look in node_modules, cdk.out or dot-folders', () => {
    const terraform = 'resource "aws_docdb_cluster" "x" {\n  engine_version = "5.0.0"\n}\n';
    const template = JSON.stringify({ Resources: { X: { Type: 'AWS::DocDB::DBCluster', Properties: { EngineVersion: '5.0.0' } } } });
    const project = lintProject({ 'node_modules/some-module/main.tf': terraform, 'cdk.out/Stack.template.json': template, '.terraform/modules/x/main.tf': terraform, 'src/db.ts': client(URI_FALSE) });
    expect(project.findings('src/db.ts').map((finding) => finding.message)).toEqual([expect.stringContaining('Set settings["retry-safety"].documentdb.engineVersion')]);
  });
});

describe('several engine versions', { timeout: 120_000 }, () => {
  it('on both sides of 8.0.2: names the versions and files, and leaves the code as it is', () => {
    const project = lintProject({
      'infra/legacy.tf': 'resource "aws_docdb_cluster" "legacy" {\n  engine_version = "5.0.0"\n}\n',
      'infra/orders.yaml': 'Resources:\n  Orders:\n    Type: AWS::DocDB::DBCluster\n    Properties:\n      EngineVersion: "8.0.2"\n',
      'src/db.ts': client(URI_FALSE),
    });
    const [finding, ...others] = project.findings('src/db.ts');
    expect(others).toEqual([]);
    expect(finding!.message).toContain('the infrastructure code states versions on both sides (5.0.0 in infra/legacy.tf:2, 8.0.2 in infra/orders.yaml:5)');
    expect(finding!.fix).toBeUndefined();
    expect(project.fix('src/db.ts')).toBe(client(URI_FALSE));
  });

  it('all before 8.0.2: reports the missing retryWrites=false with a suggestion, not an autofix', () => {
    const project = lintProject({
      'a/main.tf': 'resource "aws_docdb_cluster" "a" {\n  engine_version = "4.0.0"\n}\n',
      'b/main.tf': 'resource "aws_docdb_cluster" "b" {\n  engine_version = "5.0.0"\n}\n',
      '.env': `DOCDB_URI=${URI_NONE}\n`,
    });
    const [finding] = project.findings('.env');
    expect(finding!.message).toContain('DocumentDB 4.0.0 or 5.0.0 (from a/main.tf:2 and b/main.tf:2) has no retryable writes');
    expect(finding!.fix).toBeUndefined();
    expect(finding!.suggestions?.map((suggestion) => suggestion.desc)).toEqual(['Set retryWrites to false.']);
    expect(project.fix('.env')).toBe(`DOCDB_URI=${URI_NONE}\n`);
  });
});

describe('settings', { timeout: 120_000 }, () => {
  const terraform = 'resource "aws_docdb_cluster" "orders" {\n  engine_version = "8.0.2"\n}\n';

  it('documentdb.engineVersion wins over the infrastructure code', () => {
    const project = lintProject({ 'infra/docdb.tf': terraform, '.env': `DOCDB_URI=${URI_NONE}\n` }, { documentdb: { engineVersion: '5.0.0' } });
    const [finding] = project.findings('.env');
    expect(finding!.message).toContain('DocumentDB 5.0.0 has no retryable writes');
    expect(finding!.message).not.toContain('from infra');
    expect(project.fix('.env')).toBe(`DOCDB_URI=${URI_NONE}&retryWrites=false\n`);
  });

  it('documentdb.findEngineVersion: false leaves the version unknown', () => {
    const project = lintProject({ 'infra/docdb.tf': terraform, 'src/db.ts': client(URI_FALSE) }, { documentdb: { findEngineVersion: false } });
    const [finding] = project.findings('src/db.ts');
    expect(finding!.message).toContain('Set settings["retry-safety"].documentdb.engineVersion');
    expect(finding!.fix).toBeUndefined();
  });

  it('reports an invalid documentdb.findEngineVersion', () => {
    const project = lintProject({ 'infra/docdb.tf': terraform, 'src/db.ts': client(URI_FALSE) }, { documentdb: { findEngineVersion: 'no' } });
    expect(project.findings('src/db.ts').map((finding) => finding.message)).toContain(
      'settings["retry-safety"].documentdb.findEngineVersion is a string of 2 characters; expected true or false. Fix it: until then the rule ignores it.',
    );
  });
});
