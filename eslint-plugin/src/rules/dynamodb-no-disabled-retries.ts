import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { getKeyName } from '../analysis/ast';
import {
  type DynamoDbClientSite,
  findAwsGlobalConfigs,
  findDynamoDbClients,
  getIgnoredRetryCountOption,
  getRetryCountOption,
  getRetryStrategyMaxAttempts,
  turnsRetriesOff,
} from '../analysis/clients';
import { getPropertyRemovalRange } from '../fix';
import { createRule } from '../util/create-rule';
import { quoteCode } from '../util/quote-code';

type MessageId = 'retriesDisabled' | 'globalRetriesDisabled' | 'optionIgnored' | 'removeOption' | 'useMaxAttempts';

export default createRule<[], MessageId>({
  name: 'dynamodb-no-disabled-retries',
  meta: {
    type: 'problem',
    docs: { description: "Disallow turning off the AWS SDK's DynamoDB retries.", database: 'DynamoDB' },
    hasSuggestions: true,
    messages: {
      // The SDK's default retries are not spelled out in numbers: they differ by SDK version
      // and by service (@aws-sdk/client-dynamodb 3.1162: 4 attempts, 25 ms base; before: 3, 100 ms).
      retriesDisabled:
        'This DynamoDB client sets `{{option}}: {{value}}`, which turns off the AWS SDK {{sdk}} retries: a throttled request fails at once. Remove it to keep the default retries.',
      globalRetriesDisabled:
        'This AWS SDK v2 global configuration sets `maxRetries: {{value}}`, which turns off retries for every client made after it, DynamoDB included: a throttled request fails at once. Remove it.',
      optionIgnored: '`{{option}}` is an AWS SDK {{otherSdk}} option: this SDK {{sdk}} DynamoDB client ignores it and keeps its default retries. {{hint}}',
      removeOption: "Remove `{{option}}` to keep the SDK's default retries.",
      useMaxAttempts: 'Replace it with `maxAttempts: {{attempts}}` (v3 counts the first attempt).',
    },
    schema: [],
    defaultOptions: [],
  },
  defaultOptions: [],
  create(context) {
    return {
      'Program:exit'() {
        const clients = findDynamoDbClients(context);
        if (clients.length === 0) return;
        const { check, checkGlobal } = createChecks(context);
        for (const site of clients) {
          if (site.config) check(site, site.config);
        }
        if (!clients.some((site) => site.sdkVersion === 2)) return;
        for (const global of findAwsGlobalConfigs(context)) {
          if (global.config) checkGlobal(global.config);
        }
      },
    };
  },
});

/** The checks of one file, made only when it has something to check (most files have not). */
function createChecks(context: Readonly<TSESLint.RuleContext<MessageId, []>>) {
  const sourceCode = context.sourceCode;

  function getNumber(node: TSESTree.Node): number | undefined {
    const result = ASTUtils.getStaticValue(node, sourceCode.getScope(node));
    return result && typeof result.value === 'number' ? result.value : undefined;
  }

  function removeOption(property: TSESTree.Property) {
    return (fixer: TSESLint.RuleFixer) => fixer.removeRange(getPropertyRemovalRange(sourceCode, property, 'lines'));
  }

  const checked = new Set<TSESTree.Node>();

  function check(site: DynamoDbClientSite, config: TSESTree.ObjectExpression): void {
    // One configuration object shared by several clients is reported once.
    if (checked.has(config)) return;
    checked.add(config);
    const properties = config.properties;
    const names = new Set(properties.map((property) => (property.type === AST_NODE_TYPES.Property ? getKeyName(property, { templates: false }) : undefined)));
    properties.forEach((property, index) => {
      if (property.type !== AST_NODE_TYPES.Property) return;
      // A later spread may override the value: the rule cannot know the result.
      if (properties.slice(index + 1).some((later) => later.type === AST_NODE_TYPES.SpreadElement)) return;
      const name = getKeyName(property, { templates: false });
      const sdk = `v${site.sdkVersion}`;
      const ownOption = getRetryCountOption(site.sdkVersion);
      const otherOption = getIgnoredRetryCountOption(site.sdkVersion);
      if (name === 'retryStrategy' && site.sdkVersion === 3) {
        const attempts = getRetryStrategyMaxAttempts(context, property.value);
        if (attempts === undefined || attempts > 1) return;
        const strategy = property.value as TSESTree.NewExpression;
        const [first] = strategy.arguments;
        const value = quoteCode(`new ${sourceCode.getText(strategy.callee)}(${first ? sourceCode.getText(first) : ''}${strategy.arguments.length > 1 ? ', …' : ''})`);
        context.report({
          node: property,
          messageId: 'retriesDisabled',
          data: { option: name, value, sdk },
          suggest: [{ messageId: 'removeOption', data: { option: name }, fix: removeOption(property) }],
        });
        return;
      }
      if (name === ownOption) {
        const value = getNumber(property.value);
        const disabled = value !== undefined && turnsRetriesOff(site.sdkVersion, value);
        if (!disabled) return;
        context.report({
          node: property,
          messageId: 'retriesDisabled',
          data: { option: name, value: String(value), sdk },
          suggest: [{ messageId: 'removeOption', data: { option: name }, fix: removeOption(property) }],
        });
        return;
      }
      if (name !== otherOption) return;
      const value = getNumber(property.value);
      const suggest: TSESLint.SuggestionReportDescriptor<MessageId>[] = [
        { messageId: 'removeOption', data: { option: name }, fix: removeOption(property) },
      ];
      // v2 `maxRetries: n` means n + 1 attempts; offer the v3 spelling unless it would itself disable retries.
      if (site.sdkVersion === 3 && value !== undefined && Number.isInteger(value) && value >= 1 && !names.has('maxAttempts')) {
        const attempts = String(value + 1);
        suggest.push({
          messageId: 'useMaxAttempts',
          data: { attempts },
          fix: (fixer) => fixer.replaceText(property, `maxAttempts: ${attempts}`),
        });
      }
      context.report({
        node: property,
        messageId: 'optionIgnored',
        data: {
          option: name,
          sdk,
          otherSdk: site.sdkVersion === 3 ? 'v2' : 'v3',
          hint:
            site.sdkVersion === 3
              ? 'Use `maxAttempts` instead (all attempts, the first included).'
              : 'Use `maxRetries` instead (the retries after the first attempt).',
        },
        suggest,
      });
    });
  }

  /** `AWS.config.update({ maxRetries: 0 })`: reported only in files that make SDK v2 DynamoDB clients. */
  function checkGlobal(config: TSESTree.ObjectExpression): void {
    config.properties.forEach((property, index) => {
      if (property.type !== AST_NODE_TYPES.Property || getKeyName(property, { templates: false }) !== 'maxRetries') return;
      if (config.properties.slice(index + 1).some((later) => later.type === AST_NODE_TYPES.SpreadElement)) return;
      const value = getNumber(property.value);
      if (value === undefined || value > 0) return;
      context.report({
        node: property,
        messageId: 'globalRetriesDisabled',
        data: { value: String(value) },
        suggest: [
          { messageId: 'removeOption', data: { option: 'maxRetries' }, fix: removeOption(property) },
        ],
      });
    });
  }

  return { check, checkGlobal };
}
