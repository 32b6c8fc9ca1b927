import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { chooseEngineVersion, type ConnectionStringProblem, type ConnectionStringProblemKind, type ConnectionStringScanOptions, type ConnectionStringToken, describeHostKind, type EngineVersionChoice, findConnectionStringTokens, getConnectionStringProblem, getHostKind, getHostNameKind, getMaskedHost, getRetrySafetySettings, getRetryWritesValue, type HostKind, isConnectionStringParseable, isDocumentDbCaFile, isRetryableWritesEngine, type TextEdit } from '../analysis/connection-string';
import { findMongoConnectCalls, getPossibleStrings, type MongoConnectCall, type UriLiteral } from '../analysis/clients';
import { findInfraEngineVersions, getInfraRoot } from '../analysis/infra';
import { ESLINT_SETTINGS_NAME, SETTINGS_NAME_KEY } from '../constants';
import { getPropertyRemovalRange, overlapsComment } from '../fix';
import { TEXT_DOCUMENT_TYPE, type TextDocument } from '../languages/text-language';
import { createRule } from '../util/create-rule';

type MessageId =
  | ConnectionStringProblemKind
  | 'retryWritesFalseSeveralVersions'
  | 'conflictingRetryWrites'
  | 'invalidSetting'
  | 'suggestRemoveRetryWrites'
  | 'suggestRetryWritesFalse';

/**
 * How the user wrote the plugin's settings, for messages that name a setting:
 * `settings["retry-safety"]` in an ESLint config, or what the host says (the language
 * server: `retrySafety`, the editor's settings section).
 */
function getSettingsName(settings: Record<string, unknown>): string {
  const name = settings[SETTINGS_NAME_KEY];
  return typeof name === 'string' && /^[A-Za-z][\w.-]*$/.test(name) ? name : ESLINT_SETTINGS_NAME;
}

export default createRule<[], MessageId>({
  name: 'mongo-retry-writes-connection-string',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require the `retryWrites` setting that the MongoDB / Amazon DocumentDB engine supports.',
      database: 'MongoDB',
    },
    fixable: 'code',
    hasSuggestions: true,
    messages: {
      removeRetryWritesFalse: '{{setting}} in {{subject}} turns off retryable writes, but DocumentDB {{version}}{{versionSource}} supports them. Remove it.',
      addRetryWritesFalse:
        'DocumentDB {{version}}{{versionSource}} has no retryable writes, so every write through {{subject}} fails with error 301. Add retryWrites=false.',
      setRetryWritesFalse:
        '{{setting}} in {{subject}} makes every write fail with error 301: DocumentDB {{version}}{{versionSource}} has no retryable writes. Set it to false.',
      retryWritesFalseUnknownVersion:
        '{{setting}} is right before DocumentDB 8.0.2 only: from 8.0.2 on it turns off retryable writes. Set {{settingsName}}.documentdb.engineVersion (for example "8.0.2").',
      retryWritesFalseSeveralVersions:
        '{{setting}} is right before DocumentDB 8.0.2 only, and the infrastructure code states versions on both sides ({{versions}}). Set {{settingsName}}.documentdb.engineVersion.',
      retryWritesFalseNotDocumentDb: '{{setting}} turns off retryable writes, which {{hostKind}} supports. {{action}}',
      conflictingRetryWrites:
        'The URI for {{host}} says retryWrites={{uriValue}}, but the options passed to {{callee}} say {{optionValue}} and win. Make them agree.',
      invalidSetting: '{{setting}} is {{value}}; expected {{expected}}. Fix it: until then the rule ignores it.',
      suggestRemoveRetryWrites: 'Remove {{setting}}.',
      suggestRetryWritesFalse: 'Set retryWrites to false.',
    },
    schema: [],
    defaultOptions: [],
  },
  defaultOptions: [],
  create(context) {
    const sourceCode = context.sourceCode;
    // Cheap exit: no connection string, driver import or require without "mongo" in the text.
    const firstMongo = sourceCode.text.indexOf('mongo');
    if (firstMongo < 0) return {};
    let checks: ReturnType<typeof createChecks> | undefined;
    const getChecks = (): ReturnType<typeof createChecks> => (checks ??= createChecks(context));

    // A URI in a literal starts with its scheme: without `mongodb` in the text no literal holds one.
    const literalListeners: TSESLint.RuleListener = sourceCode.text.includes('mongodb', firstMongo)
      ? {
          Literal(node) {
            if (typeof node.value !== 'string' || !node.value.includes('mongodb')) return;
            const parentType = node.parent?.type;
            if (
              parentType === AST_NODE_TYPES.ImportDeclaration ||
              parentType === AST_NODE_TYPES.ExportAllDeclaration ||
              parentType === AST_NODE_TYPES.ExportNamedDeclaration ||
              parentType === AST_NODE_TYPES.ImportExpression ||
              parentType === AST_NODE_TYPES.TSLiteralType ||
              parentType === AST_NODE_TYPES.TSExternalModuleReference
            ) {
              return;
            }
            getChecks().checkLiteral(node as TSESTree.StringLiteral);
          },
          TemplateLiteral(node) {
            if (node.parent?.type === AST_NODE_TYPES.TSLiteralType) return;
            // Its own text only: a search from its start to the end of the file for each template would not be linear.
            if (!sourceCode.getText(node).includes('mongodb')) return;
            getChecks().checkLiteral(node);
          },
        }
      : {};

    return {
      Program() {
        const calls = findMongoConnectCalls(context);
        if (calls.length > 0) getChecks().checkConnectCalls(calls);
      },
      ...literalListeners,
      [TEXT_DOCUMENT_TYPE](node: unknown) {
        getChecks().checkTextDocument(node as TextDocument);
      },
    };
  },
});

/** The checks of one file, made at its first connection string or connect call (most files have none). */
function createChecks(context: Readonly<TSESLint.RuleContext<MessageId, []>>) {
  const sourceCode = context.sourceCode;
  const settings = getRetrySafetySettings(context.settings);
  const settingsName = getSettingsName(context.settings);
  /** The engine version (the setting, else the infrastructure code's), looked for once a connection string needs it. */
  let engine: EngineVersionChoice | undefined;
  const getEngine = (): EngineVersionChoice =>
    (engine ??= chooseEngineVersion(settings.documentdb.engineVersion, settings.documentdb.findEngineVersion, () => {
      const root = getInfraRoot(context.settings, context.cwd);
      return root === undefined ? [] : findInfraEngineVersions(root);
    }));
  const hostOptions: ConnectionStringScanOptions = { documentDbHosts: settings.documentdb.hosts };
      /** URI literals whose `retryWrites` is decided by the options object passed with them. */
  const pairedLiterals = new Map<TSESTree.Node, MongoConnectCall>();
  let settingsChecked = false;

  /** Configuration errors, once per file, at its first MongoDB connection string. */
  function reportSettingsProblems(loc: TSESTree.SourceLocation): void {
    if (settingsChecked) return;
    settingsChecked = true;
    for (const problem of settings.problems) {
      const setting = problem.setting === '' ? settingsName : `${settingsName}.${problem.setting}`;
      context.report({ loc, messageId: 'invalidSetting', data: { ...problem, setting } });
    }
  }

  function getLoc(start: number, end: number): TSESTree.SourceLocation {
    return { start: sourceCode.getLocFromIndex(start), end: sourceCode.getLocFromIndex(end) };
  }

  const shift = (edits: TextEdit[] | undefined, base: number) =>
    edits?.map((edit) => ({ range: [edit.range[0] + base, edit.range[1] + base] as [number, number], text: edit.text }));

  function toFix(edits: TextEdit[] | undefined): TSESLint.ReportFixFunction | null {
    if (!edits || edits.length === 0) return null;
    return (fixer) => edits.map((edit) => fixer.replaceTextRange(edit.range, edit.text));
  }

  /** The id and data of a DocumentDB problem's message, with where the engine version comes from. */
  function describeEngine(kind: ConnectionStringProblemKind): { messageId: MessageId; versionSource: string; versions: string; autofix: boolean } {
    const chosen = getEngine();
    const messageId = kind === 'retryWritesFalseUnknownVersion' && chosen.conflicting ? 'retryWritesFalseSeveralVersions' : kind;
    return { messageId, versionSource: chosen.versionSource, versions: chosen.conflicting ?? '', autofix: chosen.autofix };
  }

  /** What a suggestion that makes the same edit as a fix says. */
  const getSuggestionId = (kind: ConnectionStringProblemKind): MessageId =>
    kind === 'setRetryWritesFalse' || kind === 'addRetryWritesFalse' ? 'suggestRetryWritesFalse' : 'suggestRemoveRetryWrites';

  /** Reports a connection-string problem found in text starting at offset `base` of the file. */
  function reportUriProblem(problem: ConnectionStringProblem, base: number): void {
    const [start, end] = problem.range;
    const setting = problem.kind === 'addRetryWritesFalse' ? '' : sourceCode.text.slice(base + start, base + end);
    const subject = `the URI for ${problem.host}`;
    const engineData = problem.hostKind === 'documentdb' ? describeEngine(problem.kind) : undefined;
    const fix = shift(problem.fix, base);
    // Several stated versions: the verdict holds for each of them, but the edit is the user's to make.
    const autofix = engineData?.autofix !== false;
    const suggestion = shift(problem.suggestion, base) ?? (autofix ? undefined : fix);
    context.report({
      loc: getLoc(base + start, base + end),
      messageId: engineData?.messageId ?? problem.kind,
      data: {
        subject,
        setting,
        version: problem.engineVersion ?? '',
        versionSource: engineData?.versionSource ?? '',
        versions: engineData?.versions ?? '',
        hostKind: describeHostKind(problem.hostKind),
        settingsName,
        action: getRemoveAction(problem.hostKind, subject, problem.host),
      },
      fix: autofix ? toFix(fix) : null,
      suggest:
        suggestion && suggestion.length > 0
          ? [{ messageId: getSuggestionId(problem.kind), data: { setting }, fix: (fixer) => suggestion.map((edit) => fixer.replaceTextRange(edit.range, edit.text)) }]
          : [],
    });
  }

  /**
   * What to do about `retryWrites=false` on a host not known as DocumentDB: remove it; but a
   * plain host may be a tunnel to DocumentDB before 8.0.2, which the hosts setting tells.
   */
  function getRemoveAction(hostKind: HostKind, subject: string, host: string | undefined): string {
    if (hostKind !== 'other' || !host) return `Remove it from ${subject}.`;
    return `Remove it, or for a tunnel to DocumentDB before 8.0.2, list ${host} in ${settingsName}.documentdb.hosts.`;
  }

  /** Options for judging a URI: the engine version only when its host is DocumentDB (finding it may walk the repository). */
  function getScanOptionsFor(token: ConnectionStringToken, templateHostKind?: HostKind): ConnectionStringScanOptions {
    const hostKind = getHostKind(token, hostOptions.documentDbHosts);
    const withTemplate = templateHostKind ? { ...hostOptions, templateHostKind } : hostOptions;
    if (hostKind === 'documentdb' || (hostKind === 'unknown' && templateHostKind === 'documentdb')) return { ...withTemplate, engineVersion: getEngine().version };
    return withTemplate;
  }

  /** Connection strings written in a string or template literal (not in its `${}` expressions). */
  function findLiteralTokens(node: UriLiteral): { raw: string; tokens: ConnectionStringToken[] } {
    const raw = sourceCode.getText(node);
    if (!raw.includes('mongodb')) return { raw, tokens: [] };
    const base = node.range[0];
    const expressions = node.type === AST_NODE_TYPES.TemplateLiteral ? node.expressions : [];
    // A template literal's `${…}` may span lines; the literal bounds it.
    const tokens = findConnectionStringTokens(raw, { multiLineTemplates: node.type === AST_NODE_TYPES.TemplateLiteral }).filter(
      (token) => !expressions.some((expression) => token.start + base >= expression.range[0] && token.start + base < expression.range[1]),
    );
    return { raw, tokens };
  }

  /** Settings problems go at the file's first connection string that parses (parsed only while they are pending). */
  function checkSettingsAt(text: string, token: ConnectionStringToken, base: number): void {
    if (settingsChecked || settings.problems.length === 0 || !isConnectionStringParseable(text, token)) return;
    reportSettingsProblems(getLoc(base + token.start, base + token.end));
  }

  /**
   * `mongodb://${host}/…`: the service the host expressions name, when every value the
   * code gives them (a const, a default, a fallback of an environment variable) agrees.
   */
  function getTemplateHostKind(node: UriLiteral, raw: string, token: ConnectionStringToken): HostKind | undefined {
    if (node.type !== AST_NODE_TYPES.TemplateLiteral || node.expressions.length === 0) return undefined;
    const text = raw.slice(token.start, token.end);
    // The hosts: after the user info (the last `@`), before the path or options; `${…}` skipped whole.
    let hostsStart = text.indexOf('://') + 3;
    let hostsEnd = hostsStart;
    while (hostsEnd < text.length && !'/?'.includes(text[hostsEnd] as string)) {
      if (text[hostsEnd] === '@') hostsStart = hostsEnd + 1;
      hostsEnd = text.startsWith('${', hostsEnd) ? Math.max(text.indexOf('}', hostsEnd), hostsEnd) + 1 : hostsEnd + 1;
    }
    const [from, to] = [node.range[0] + token.start + hostsStart, node.range[0] + token.start + hostsEnd];
    const hosts = node.expressions.filter((expression) => expression.range[0] >= from && expression.range[1] <= to);
    let kind: HostKind | undefined;
    for (const expression of hosts) {
      for (const value of getPossibleStrings(context, expression) ?? ['']) {
        const next = getHostNameKind(value, hostOptions.documentDbHosts);
        if (next === 'unknown' || (kind !== undefined && next !== kind)) return undefined;
        kind = next;
      }
    }
    return kind;
  }

  function checkLiteral(node: UriLiteral): void {
    const { raw, tokens } = findLiteralTokens(node);
    const base = node.range[0];
    for (const token of tokens) {
      checkSettingsAt(raw, token, base);
      const templateHostKind = getTemplateHostKind(node, raw, token);
      const problem = getConnectionStringProblem(raw, token, getScanOptionsFor(token, templateHostKind));
      if (!problem || !shouldReportLiteralProblem(node, raw, token, problem)) continue;
      reportUriProblem(problem, base);
    }
  }

  function shouldReportLiteralProblem(node: UriLiteral, raw: string, token: ConnectionStringToken, problem: ConnectionStringProblem): boolean {
    const call = pairedLiterals.get(node);
    if (call?.retryWritesProperty) {
      // The options object decides; a disagreement is reported on it.
      if (problem.kind === 'addRetryWritesFalse') return false;
      const uriValue = getRetryWritesValue(token);
      if (uriValue !== undefined && uriValue !== call.retryWritesProperty.value.value) return false;
    }
    if (problem.kind === 'addRetryWritesFalse') return isWholeUri(node, raw, token);
    return true;
  }

  /** The URI is the literal's whole value and the literal is not a piece of a longer string. */
  function isWholeUri(node: UriLiteral, raw: string, token: ConnectionStringToken): boolean {
    if (token.end !== raw.length - 1) return false;
    const parent = node.parent;
    if (parent?.type === AST_NODE_TYPES.BinaryExpression && parent.operator === '+') return false;
    if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.operator === '+=') return false;
    if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === node) return false;
    if (parent?.type === AST_NODE_TYPES.TemplateLiteral) return false;
    return true;
  }

  /**
   * `` new MongoClient(`${base}?tls=true&tlsCAFile=global-bundle.pem&retryWrites=false`) ``:
   * the options of a URI whose scheme and hosts come from a value. Judged as if the scheme
   * were written (the hosts stay a template), so only the options decide: the CA bundle
   * makes it DocumentDB, and a missing `retryWrites` is not reported (the value may hold it).
   */
  function checkUriTail(call: MongoConnectCall): void {
    const node = call.uriLiteral;
    if (node?.type !== AST_NODE_TYPES.TemplateLiteral || node.quasis[0]?.value.raw !== '' || !node.expressions[0]) return;
    if (!/^[/?]/.test(node.quasis[1]?.value.raw ?? '') || sourceCode.getText(node).includes('://')) return;
    const raw = sourceCode.getText(node);
    const scheme = 'mongodb://';
    const text = `${raw[0]}${scheme}${raw.slice(1)}`;
    const token = findConnectionStringTokens(text, { multiLineTemplates: true })[0];
    if (!token || token.start !== 1) return;
    const problem = getConnectionStringProblem(text, token, getScanOptionsFor(token));
    if (!problem || problem.kind === 'addRetryWritesFalse' || problem.range[0] <= scheme.length) return;
    // Back to the file: every position after the inserted scheme moves by its length.
    const unshift = (edits: TextEdit[] | undefined) =>
      edits?.every((edit) => edit.range[0] > scheme.length)
        ? edits.map((edit) => ({ range: [edit.range[0] - scheme.length, edit.range[1] - scheme.length] as [number, number], text: edit.text }))
        : undefined;
    reportUriProblem(
      {
        ...problem,
        range: [problem.range[0] - scheme.length, problem.range[1] - scheme.length],
        fix: unshift(problem.fix),
        suggestion: unshift(problem.suggestion),
      },
      node.range[0],
    );
  }

  function checkConnectCall(call: MongoConnectCall): void {
    const property = call.retryWritesProperty;
    if (!property) return;
    const optionValue = property.value.value;
    const uriToken = call.uriLiteral && getFirstParseableToken(call.uriLiteral);
    const fallbackToken = !uriToken && call.fallbackUriLiteral ? getFirstParseableToken(call.fallbackUriLiteral) : undefined;
    reportSettingsProblems(property.loc);

    let hostKind: HostKind = 'unknown';
    const hostToken = uriToken ?? fallbackToken;
    if (hostToken) hostKind = getHostKind(hostToken.token, hostOptions.documentDbHosts);
    if (call.caFile !== undefined && isDocumentDbCaFile(call.caFile)) hostKind = 'documentdb';

    if (uriToken) {
      const uriValue = getRetryWritesValue(uriToken.token);
      if (uriValue !== undefined && uriValue !== optionValue) {
        context.report({
          node: property,
          messageId: 'conflictingRetryWrites',
          data: { host: getMaskedHost(uriToken.raw, uriToken.token), uriValue: String(uriValue), callee: call.callee, optionValue: String(optionValue) },
        });
      }
    }

    const kind = getOptionProblemKind(hostKind, optionValue);
    if (!kind) return;
    const subject = `the options passed to ${call.callee}`;
    const engineData = hostKind === 'documentdb' ? describeEngine(kind) : undefined;
    const data = {
      subject,
      setting: `retryWrites: ${String(optionValue)}`,
      version: engineData ? (getEngine().version?.text ?? '') : '',
      versionSource: engineData?.versionSource ?? '',
      versions: engineData?.versions ?? '',
      hostKind: describeHostKind(hostKind),
      settingsName,
      action: getRemoveAction(hostKind, subject, hostToken && getMaskedHost(hostToken.raw, hostToken.token)),
    };
    const messageId = engineData?.messageId ?? kind;
    const autofix = engineData?.autofix !== false;
    const setFalse: TSESLint.ReportFixFunction = (fixer) => fixer.replaceText(property.value, 'false');
    if (kind === 'setRetryWritesFalse') {
      context.report({
        node: property,
        messageId,
        data,
        fix: autofix ? setFalse : null,
        suggest: autofix ? [] : [{ messageId: getSuggestionId(kind), data, fix: setFalse }],
      });
      return;
    }
    const removalRange = getPropertyRemovalRange(sourceCode, property, 'tokens');
    // No fix that would lose a comment.
    const removal: TSESLint.ReportFixFunction | null = overlapsComment(sourceCode, removalRange) ? null : (fixer) => fixer.removeRange(removalRange);
    const fixesByRemoval = kind === 'removeRetryWritesFalse' && autofix;
    context.report({
      node: property,
      messageId,
      data,
      fix: fixesByRemoval ? removal : null,
      suggest: !fixesByRemoval && removal ? [{ messageId: 'suggestRemoveRetryWrites', data: { setting: data.setting }, fix: removal }] : [],
    });
  }

  function getOptionProblemKind(hostKind: HostKind, optionValue: boolean): ConnectionStringProblemKind | undefined {
    if (hostKind === 'unknown') return undefined;
    if (hostKind !== 'documentdb') return optionValue ? undefined : 'retryWritesFalseNotDocumentDb';
    const version = getEngine().version;
    if (!version) return optionValue ? undefined : 'retryWritesFalseUnknownVersion';
    if (isRetryableWritesEngine(version)) return optionValue ? undefined : 'removeRetryWritesFalse';
    return optionValue ? 'setRetryWritesFalse' : undefined;
  }

  function getFirstParseableToken(node: UriLiteral): { raw: string; token: ConnectionStringToken } | undefined {
    const { raw, tokens } = findLiteralTokens(node);
    const token = tokens.find((candidate) => isConnectionStringParseable(raw, candidate));
    return token && { raw, token };
  }

  function checkTextDocument(node: TextDocument): void {
    if (node.isBinary) return;
    const text = sourceCode.text;
    for (const token of findConnectionStringTokens(text, { skipCommentLines: true })) {
      checkSettingsAt(text, token, 0);
      const problem = getConnectionStringProblem(text, token, getScanOptionsFor(token));
      if (problem) reportUriProblem(problem, 0);
    }
  }

  function checkConnectCalls(calls: readonly MongoConnectCall[]): void {
    for (const call of calls) {
      if (call.uriLiteral && call.retryWritesProperty) pairedLiterals.set(call.uriLiteral, call);
      checkConnectCall(call);
      if (!call.retryWritesProperty) checkUriTail(call);
    }
  }

  return { checkLiteral, checkTextDocument, checkConnectCalls };
}
