/** The DynamoDB API's operation names, and the SDK method and command names that map to them. */

/** DynamoDB API operations (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Operations_Amazon_DynamoDB.html). */
export const OPERATIONS = [
  'BatchExecuteStatement', 'BatchGetItem', 'BatchWriteItem', 'CreateBackup', 'CreateGlobalTable', 'CreateTable',
  'DeleteBackup', 'DeleteItem', 'DeleteResourcePolicy', 'DeleteTable', 'DescribeBackup', 'DescribeContinuousBackups',
  'DescribeContributorInsights', 'DescribeEndpoints', 'DescribeExport', 'DescribeGlobalTable',
  'DescribeGlobalTableSettings', 'DescribeImport', 'DescribeKinesisStreamingDestination', 'DescribeLimits',
  'DescribeTable', 'DescribeTableReplicaAutoScaling', 'DescribeTimeToLive', 'DisableKinesisStreamingDestination',
  'EnableKinesisStreamingDestination', 'ExecuteStatement', 'ExecuteTransaction', 'ExportTableToPointInTime', 'GetItem',
  'GetResourcePolicy', 'ImportTable', 'ListBackups', 'ListContributorInsights', 'ListExports', 'ListGlobalTables',
  'ListImports', 'ListTables', 'ListTagsOfResource', 'PutItem', 'PutResourcePolicy', 'Query', 'RestoreTableFromBackup',
  'RestoreTableToPointInTime', 'Scan', 'TagResource', 'TransactGetItems', 'TransactWriteItems', 'UntagResource',
  'UpdateContinuousBackups', 'UpdateContributorInsights', 'UpdateGlobalTable', 'UpdateGlobalTableSettings', 'UpdateItem',
  'UpdateKinesisStreamingDestination', 'UpdateTable', 'UpdateTableReplicaAutoScaling', 'UpdateTimeToLive',
] as const;

/** Document-client method / command stem → API operation (lib-dynamodb and v2 `DocumentClient`). */
export const DOCUMENT_OPERATIONS: Record<string, string> = {
  put: 'PutItem',
  get: 'GetItem',
  update: 'UpdateItem',
  delete: 'DeleteItem',
  query: 'Query',
  scan: 'Scan',
  batchGet: 'BatchGetItem',
  batchWrite: 'BatchWriteItem',
  transactGet: 'TransactGetItems',
  transactWrite: 'TransactWriteItems',
  executeStatement: 'ExecuteStatement',
  batchExecuteStatement: 'BatchExecuteStatement',
  executeTransaction: 'ExecuteTransaction',
};
/** v2 `DocumentClient` has only these (no PartiQL). */
export const V2_DOCUMENT_METHODS = ['put', 'get', 'update', 'delete', 'query', 'scan', 'batchGet', 'batchWrite', 'transactGet', 'transactWrite'];

export const PAGINATORS: Record<string, string> = {
  paginateQuery: 'Query',
  paginateScan: 'Scan',
  paginateListTables: 'ListTables',
  paginateListContributorInsights: 'ListContributorInsights',
  paginateListExports: 'ListExports',
  paginateListImports: 'ListImports',
};

const READ_PREFIXES = ['Get', 'Describe', 'List', 'Query', 'Scan', 'BatchGet', 'TransactGet'];

/** True when the DynamoDB operation may change data or schema (PartiQL statements: by their text). */
export function isDynamoDbWriteOperation(operation: string): boolean {
  return !READ_PREFIXES.some((prefix) => operation.startsWith(prefix));
}

/** `BatchWriteItem` → `batchWriteItem` (the SDK's method names). */
export function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
