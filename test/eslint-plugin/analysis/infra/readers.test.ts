// What each infrastructure reader finds in one file: Terraform, templates (CloudFormation,
// SAM, Serverless, Pulumi YAML, Terraform JSON) and CDK / Pulumi programs, with the
// look-alikes that must stay silent and odd input that must not break them.
import { describe, expect, it } from 'vitest';
import { findCodeEngineVersions } from '../../../../eslint-plugin/src/analysis/infra/code';
import { findTemplateEngineVersions } from '../../../../eslint-plugin/src/analysis/infra/templates';
import { findTerraformEngineVersions } from '../../../../eslint-plugin/src/analysis/infra/terraform';

const brief = (found: Array<{ version: string; line: number; kind: string; resource: string }>) =>
  found.map(({ version, line, kind, resource }) => [version, line, kind, resource]);

describe('Terraform', () => {
  it('reads engine_version of aws_docdb_cluster and aws_docdb_global_cluster blocks', () => {
    const text = [
      '# DocumentDB for orders',
      'resource "aws_docdb_cluster" "orders" {',
      '  cluster_identifier = "orders"',
      '  engine             = "docdb"',
      '  engine_version     = "8.0.2"',
      '  tags = {',
      '    engine_version = "1.0.0"',
      '  }',
      '  lifecycle {',
      '    engine_version = "2.0.0"',
      '  }',
      '}',
      'resource "aws_docdb_global_cluster" "global" { engine_version = "5.0.0" }',
    ].join('\n');
    expect(brief(findTerraformEngineVersions(text, 'infra/docdb.tf'))).toEqual([
      ['8.0.2', 5, 'terraform', 'aws_docdb_cluster'],
      ['5.0.0', 13, 'terraform', 'aws_docdb_global_cluster'],
    ]);
  });

  it('leaves variables, expressions, templates, other resources and commented-out blocks alone', () => {
    const text = [
      'variable "engine_version" { default = "4.0.0" }',
      'resource "aws_docdb_cluster" "a" {',
      '  engine_version = var.engine_version',
      '}',
      'resource "aws_docdb_cluster" "b" {',
      '  engine_version = "${var.major}.0.0"',
      '}',
      'resource "aws_rds_cluster" "c" {',
      '  engine_version = "15.4"',
      '}',
      'resource "aws_docdb_elastic_cluster" "d" {',
      '  shard_count = 2',
      '}',
      '/* resource "aws_docdb_cluster" "e" {',
      '  engine_version = "3.6.0"',
      '} */',
      '// resource "aws_docdb_cluster" "f" { engine_version = "3.6.0" }',
    ].join('\n');
    expect(findTerraformEngineVersions(text, 'main.tf')).toEqual([]);
  });

  it('is not misled by braces and quotes inside strings, templates and heredocs', () => {
    const text = [
      'locals {',
      '  policy = <<EOF',
      '{ "resource": "aws_docdb_cluster", "x": "}"',
      'EOF',
      '  name = "a } b ${jsonencode({ k = "}" })} c"',
      '}',
      'resource "aws_docdb_cluster" "main" {',
      '  master_password = "p\\"w}"',
      '  engine_version  = "5.0.0" # pinned',
      '}',
    ].join('\n');
    expect(brief(findTerraformEngineVersions(text, 'main.tf'))).toEqual([['5.0.0', 9, 'terraform', 'aws_docdb_cluster']]);
  });

  it('survives unbalanced and truncated input', () => {
    for (const text of ['resource "aws_docdb_cluster" "x" {\n engine_version = "5.0.0"', '}}}} resource "aws_docdb_cluster" {{{{', 'resource "aws_docdb_cluster" "x" { engine_version = "5.0', '"${"${"${', '<<EOF\nresource "aws_docdb_cluster"']) {
      expect(() => findTerraformEngineVersions(text, 'x.tf')).not.toThrow();
    }
  });
});

describe('templates', () => {
  it('reads CloudFormation YAML with short-form tags, and leaves tagged values alone', () => {
    const text = [
      "AWSTemplateFormatVersion: '2010-09-09'",
      'Transform: AWS::Serverless-2016-10-31',
      'Parameters:',
      '  Version: { Type: String, Default: 4.0.0 }',
      'Resources:',
      '  Orders:',
      '    Type: AWS::DocDB::DBCluster',
      '    Properties:',
      '      MasterUsername: !Ref User',
      '      MasterUserPassword: !Sub "{{resolve:secretsmanager:${Secret}}}"',
      '      VpcSecurityGroupIds: [!GetAtt Sg.GroupId]',
      '      EngineVersion: 5.0',
      '  FromParameter:',
      '    Type: AWS::DocDB::DBCluster',
      '    Properties:',
      '      EngineVersion: !Ref Version',
      '  Postgres:',
      '    Type: AWS::RDS::DBCluster',
      '    Properties:',
      '      EngineVersion: "15.4"',
    ].join('\n');
    expect(brief(findTemplateEngineVersions(text, 'template.yaml'))).toEqual([['5.0', 12, 'cloudformation', 'AWS::DocDB::DBCluster']]);
  });

  it('reads CloudFormation JSON with lines, and ignores intrinsic functions', () => {
    const text = JSON.stringify(
      {
        Resources: {
          A: { Type: 'AWS::DocDB::DBCluster', Properties: { EngineVersion: '8.0.2' } },
          B: { Type: 'AWS::DocDB::DBCluster', Properties: { EngineVersion: { Ref: 'Version' } } },
        },
      },
      null,
      2,
    );
    expect(brief(findTemplateEngineVersions(text, 'stack.json'))).toEqual([['8.0.2', 6, 'cloudformation', 'AWS::DocDB::DBCluster']]);
  });

  it('reads serverless.yml resources, Pulumi YAML and Terraform JSON', () => {
    const serverless = ['service: orders', 'resources:', '  Resources:', '    Db:', '      Type: AWS::DocDB::DBCluster', '      Properties:', '        EngineVersion: "4.0.0"'].join('\n');
    expect(brief(findTemplateEngineVersions(serverless, 'serverless.yml'))).toEqual([['4.0.0', 7, 'cloudformation', 'AWS::DocDB::DBCluster']]);
    const pulumi = ['name: orders', 'runtime: yaml', 'resources:', '  db:', '    type: aws:docdb:Cluster', '    properties:', '      engineVersion: 5.0.0'].join('\n');
    expect(brief(findTemplateEngineVersions(pulumi, 'Pulumi.yaml'))).toEqual([['5.0.0', 7, 'pulumi', 'aws:docdb:Cluster']]);
    const terraformJson = '{\n  "resource": {\n    "aws_docdb_cluster": {\n      "main": { "engine_version": "8.0.2" }\n    }\n  }\n}';
    expect(brief(findTemplateEngineVersions(terraformJson, 'main.tf.json'))).toEqual([['8.0.2', 4, 'terraform', 'aws_docdb_cluster']]);
  });

  it('finds nothing in invalid YAML, a list, or a file that only mentions the type', () => {
    expect(findTemplateEngineVersions('Resources: [AWS::DocDB::DBCluster\n  - : :', 'bad.yaml')).toEqual([]);
    expect(findTemplateEngineVersions('- AWS::DocDB::DBCluster\n- EngineVersion: 5.0.0', 'list.yaml')).toEqual([]);
    expect(findTemplateEngineVersions('description: we run AWS::DocDB::DBCluster 5.0.0', 'notes.yaml')).toEqual([]);
    expect(findTemplateEngineVersions('{"Resources": {"A": {"Type": "AWS::DocDB::DBCluster", ', 'cut.json')).toEqual([]);
  });

  it('does not expand aliases (a billion laughs costs nothing)', () => {
    const lines = ['a: &a ["AWS::DocDB::DBCluster", "x", "x", "x", "x", "x", "x", "x", "x", "x"]'];
    for (let level = 0; level < 20; level++) lines.push(`${String.fromCharCode(98 + level)}: &${String.fromCharCode(98 + level)} [*${String.fromCharCode(97 + level)}, *${String.fromCharCode(97 + level)}, *${String.fromCharCode(97 + level)}, *${String.fromCharCode(97 + level)}, *${String.fromCharCode(97 + level)}]`);
    const started = performance.now();
    expect(findTemplateEngineVersions(lines.join('\n'), 'bomb.yaml')).toEqual([]);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('CDK and Pulumi programs', () => {
  it('reads CDK DatabaseCluster and CfnDBCluster from the docdb module, under any import form', () => {
    const text = [
      "import * as cdk from 'aws-cdk-lib';",
      "import * as docdb from 'aws-cdk-lib/aws-docdb';",
      "import { DatabaseCluster as Cluster } from 'aws-cdk-lib/aws-docdb';",
      "import { aws_docdb as documentdb } from 'aws-cdk-lib';",
      "const ENGINE = '4.0.0';",
      'export class Db extends cdk.Stack {',
      '  constructor(scope: Construct, id: string) {',
      '    super(scope, id);',
      "    new docdb.DatabaseCluster(this, 'A', { engineVersion: '5.0.0', masterUser: { username: 'app' }, vpc });",
      "    new Cluster(this, 'B', {",
      '      engineVersion: ENGINE,',
      '    });',
      "    new documentdb.CfnDBCluster(this, 'C', { engineVersion: \"8.0.2\" as const });",
      "    new cdk.aws_docdb.DatabaseCluster(this, 'D', { vpc, engineVersion: `5.0.0` });",
      '  }',
      '}',
    ].join('\n');
    expect(brief(findCodeEngineVersions(text, 'lib/db-stack.ts'))).toEqual([
      ['5.0.0', 9, 'cdk', 'docdb.DatabaseCluster'],
      ['4.0.0', 5, 'cdk', 'Cluster'],
      ['8.0.2', 13, 'cdk', 'documentdb.CfnDBCluster'],
      ['5.0.0', 14, 'cdk', 'cdk.aws_docdb.DatabaseCluster'],
    ]);
  });

  it('reads Pulumi aws.docdb.Cluster and GlobalCluster, in CommonJS too', () => {
    const esm = ["import * as aws from '@pulumi/aws';", "const engineVersion = '5.0.0';", "new aws.docdb.Cluster('orders', { engineVersion, masterUsername: 'app' });"].join('\n');
    expect(brief(findCodeEngineVersions(esm, 'index.ts'))).toEqual([['5.0.0', 2, 'pulumi', 'aws.docdb.Cluster']]);
    const cjs = ["const { docdb } = require('@pulumi/aws');", "new docdb.GlobalCluster('g', { engineVersion: '8.0.2' });"].join('\n');
    expect(brief(findCodeEngineVersions(cjs, 'index.js'))).toEqual([['8.0.2', 2, 'pulumi', 'docdb.GlobalCluster']]);
  });

  it('leaves RDS and Neptune clusters, other classes, comments, strings and unresolved values alone', () => {
    const text = [
      "import * as rds from 'aws-cdk-lib/aws-rds';",
      "import * as neptune from '@aws-cdk/aws-neptune-alpha';",
      "import { DatabaseCluster } from 'aws-cdk-lib/aws-rds';",
      "import * as docdb from 'aws-cdk-lib/aws-docdb';",
      "new rds.DatabaseCluster(this, 'Pg', { engine, engineVersion: '15.4' });",
      "new neptune.DatabaseCluster(this, 'N', { engineVersion: neptune.EngineVersion.V1_2_0_0 });",
      "new DatabaseCluster(this, 'Pg2', { engineVersion: '15.4' });",
      "// new docdb.DatabaseCluster(this, 'Old', { engineVersion: '3.6.0' });",
      "const sample = \"new docdb.DatabaseCluster(this, 'S', { engineVersion: '3.6.0' })\";",
      "const doc = `new docdb.DatabaseCluster(this, 'T', { engineVersion: '3.6.0' }) ${sample}`;",
      "new docdb.DatabaseCluster(this, 'P', { engineVersion: props.engineVersion });",
      "new docdb.DatabaseCluster(this, 'Q', { ...defaults, nested: { engineVersion: '3.6.0' } });",
      "new docdb.DatabaseCluster(this, 'R', { engineVersion: `${major}.0.0` });",
      "new docdb.DatabaseInstance(this, 'I', { engineVersion: '3.6.0' });",
    ].join('\n');
    expect(findCodeEngineVersions(text, 'lib/stack.ts')).toEqual([]);
  });

  it('is not misled by regular expressions and template literals holding quotes and braces', () => {
    const text = [
      "import * as docdb from 'aws-cdk-lib/aws-docdb';",
      "const quote = /['\"}]/g;",
      'const ratio = a / b / c;',
      "const label = `it's ${ { a: '}' }.a } here`;",
      "new docdb.DatabaseCluster(this, 'A', { engineVersion: '5.0.0' });",
    ].join('\n');
    expect(brief(findCodeEngineVersions(text, 'stack.ts'))).toEqual([['5.0.0', 5, 'cdk', 'docdb.DatabaseCluster']]);
  });

  it('survives truncated and odd input', () => {
    for (const text of ["import * as docdb from 'aws-cdk-lib/aws-docdb'; new docdb.DatabaseCluster(this, 'A', { engineVersion: ", 'docdb `${`${`${', "docdb /[/ '", 'import docdb = require(', 'new docdb.DatabaseCluster<']) {
      expect(() => findCodeEngineVersions(text, 'x.ts')).not.toThrow();
    }
  });
});

describe('time', () => {
  const size = 400_000;
  const inputs: Array<[string, (text: string, file: string) => unknown, string]> = [
    ['Terraform braces and templates', findTerraformEngineVersions, `resource "aws_docdb_cluster" "x" {\n${'{'.repeat(size / 2)}${'"${'.repeat(size / 6)}`],
    ['Terraform heredoc openers', findTerraformEngineVersions, `aws_docdb_cluster ${'<<EOF\n'.repeat(size / 6)}`],
    ['unclosed constructor calls', findCodeEngineVersions, `import * as docdb from 'aws-cdk-lib/aws-docdb';\n${'new docdb.DatabaseCluster(this, { engineVersion: ('.repeat(size / 48)}`],
    ['nested template literals', findCodeEngineVersions, `docdb ${'`${'.repeat(size / 3)}`],
    ['an endless import clause', findCodeEngineVersions, `docdb ${'import { a as b, '.repeat(size / 16)}`],
    ['deeply nested YAML flow collections', findTemplateEngineVersions, `AWS::DocDB::DBCluster: ${'['.repeat(size / 10)}`],
    ['deeply nested YAML block sequences', findTemplateEngineVersions, `AWS::DocDB::DBCluster:\n${'- '.repeat(size / 4)}x`],
    ['a long flat template', findTemplateEngineVersions, `Resources:\n${'  R:\n    Type: AWS::DocDB::DBCluster\n    Properties: { EngineVersion: "5.0.0", Tags: [a, b] }\n'.repeat(size / 80)}`],
  ];
  // 400 kB each: a scan that grew with the square of the length would take minutes; the
  // bound leaves room for a loaded machine.
  it.each(inputs)('stays linear on %s', (_name, read, text) => {
    const started = performance.now();
    expect(() => read(text, 'big')).not.toThrow();
    expect(performance.now() - started).toBeLessThan(10_000);
  }, 30_000);
});
