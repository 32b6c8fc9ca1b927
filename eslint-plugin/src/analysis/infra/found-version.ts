/** Where infrastructure code states a DocumentDB engine version. */
export type InfraKind = 'terraform' | 'cloudformation' | 'cdk' | 'pulumi';

export interface FoundEngineVersion {
  /** As written (`"8.0.2"`, `5.0.0`); the caller decides whether it is a valid engine version. */
  version: string;
  /** The file, relative to the searched folder, with `/` separators. */
  file: string;
  /** 1-based line of the value. */
  line: number;
  kind: InfraKind;
  /** The resource or construct that states it (`aws_docdb_cluster`, `AWS::DocDB::DBCluster`, `docdb.DatabaseCluster`). */
  resource: string;
}
