import { McpManager } from '../electron/host/mcp/mcp-manager';
import { DisposableStore } from '../electron/host/lifecycle/disposable';
import { builtinTools } from '../electron/host/tools/builtin-tools';
import type { AnyTool } from '../electron/host/tools/tool';
import { applyDeferral } from '../electron/host/tool-search/deferral';
import { schemaBytes } from '../electron/host/tool-search/tool-schema';
import { searchTools } from '../electron/host/tool-search/search';
import { SearchIndex } from '../electron/host/tool-search/search-index';
import { buildMcpTestServer } from '../test/helpers/mcp-test-server-build';
import { CATALOG_SERVERS } from '../test/helpers/mcp-tool-catalog';
import { report, fmt, timed } from './report';

// With 200 MCP tools connected (four real server processes of 50 tools each), the bytes of tool
// definitions in the first model request with deferral (agent.tool_search auto) against eager
// binding (off), and tool_search's hit rate on 50 queries that name or describe a tool, beside a
// naive reference ranking (count of query words found in the name or description).

const NAMING: [query: string, target: string][] = [
  ['mcp__dev__github_list_commits', 'mcp__dev__github_list_commits'],
  ['mcp__cloud__s3_list_buckets', 'mcp__cloud__s3_list_buckets'],
  ['mcp__comms__slack_pin_message', 'mcp__comms__slack_pin_message'],
  ['mcp__data__stripe_get_balance', 'mcp__data__stripe_get_balance'],
  ['mcp__cloud__docker_prune_volumes', 'mcp__cloud__docker_prune_volumes'],
  ['mcp__dev__create_linear_issue', 'mcp__dev__create_linear_issue'],
  ['mcp__comms__gmail_create_filter', 'mcp__comms__gmail_create_filter'],
  ['mcp__data__notion_duplicate_page', 'mcp__data__notion_duplicate_page'],
  ['mcp__cloud__kubernetes_list_pods', 'mcp__cloud__kubernetes_list_pods'],
  ['mcp__dev__gitlab_list_projects', 'mcp__dev__gitlab_list_projects'],
  ['mcp__comms__calendar_list_events', 'mcp__comms__calendar_list_events'],
  ['mcp__data__postgres_list_tables', 'mcp__data__postgres_list_tables'],
  ['jira_search_jql', 'mcp__dev__jira_search_jql'],
  ['kubernetes_port_forward', 'mcp__cloud__kubernetes_port_forward'],
  ['twilio_verify_check', 'mcp__comms__twilio_verify_check'],
  ['salesforce_convert_lead', 'mcp__data__salesforce_convert_lead'],
  ['datadog_get_trace', 'mcp__cloud__datadog_get_trace'],
  ['figma_get_versions', 'mcp__data__figma_get_versions'],
  ['zendesk_escalate_ticket', 'mcp__comms__zendesk_escalate_ticket'],
  ['gitlab_protect_branch', 'mcp__dev__gitlab_protect_branch'],
  ['lambda_create_alias', 'mcp__cloud__lambda_create_alias'],
  ['sentry_list_releases', 'mcp__dev__sentry_list_releases'],
  ['GitHub_Create_Issue', 'mcp__dev__github_create_issue'],
  ['list_figma_files', 'mcp__data__list_figma_files'],
  ['s3_get_object', 'mcp__cloud__s3_get_object'],
];

const DESCRIBING: [query: string, target: string][] = [
  ['open a new bug report on github', 'mcp__dev__github_create_issue'],
  ['merge a PR with squash', 'mcp__dev__github_merge_pull_request'],
  ['see why a gitlab CI job failed, its output', 'mcp__dev__gitlab_get_job_log'],
  ['move a jira ticket to done', 'mcp__dev__jira_transition_ticket'],
  ['record time spent on a jira ticket', 'mcp__dev__jira_log_work'],
  ['stack trace of a sentry error event', 'mcp__dev__sentry_get_event'],
  ['mark a sentry error as resolved', 'mcp__dev__sentry_resolve_issue'],
  ['upload a file into a bucket', 'mcp__cloud__s3_put_object'],
  ['temporary link to download an object', 'mcp__cloud__s3_presign_url'],
  ['tail the logs of a docker container', 'mcp__cloud__docker_container_logs'],
  ['restart all pods of a deployment', 'mcp__cloud__kubernetes_rollout_restart'],
  ['increase the number of replicas', 'mcp__cloud__kubernetes_scale_deployment'],
  ['call a lambda with a payload', 'mcp__cloud__lambda_invoke_function'],
  ['silence an alerting datadog monitor', 'mcp__cloud__datadog_mute_monitor'],
  ['write in a slack channel', 'mcp__comms__slack_send_message'],
  ['email someone a message with a subject', 'mcp__comms__gmail_send_email'],
  ['when is everyone free for a meeting', 'mcp__comms__calendar_find_free_time'],
  ['text a phone number', 'mcp__comms__twilio_send_sms'],
  ['answer a customer on their zendesk ticket', 'mcp__comms__zendesk_reply_to_ticket'],
  ['run a sql select on postgres', 'mcp__data__postgres_run_query'],
  ['show the query plan of a slow statement', 'mcp__data__postgres_explain_query'],
  ['give a customer their money back for a charge', 'mcp__data__stripe_refund_charge'],
  ['stop a stripe subscription', 'mcp__data__stripe_cancel_subscription'],
  ['add paragraphs to a notion page', 'mcp__data__notion_append_blocks'],
  ['export figma frames as png images', 'mcp__data__figma_export_frames'],
];

/** The reference ranking: how many query words occur in the name or description. */
function naive(tools: readonly AnyTool[], query: string, max: number): AnyTool[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return tools
    .map((t) => ({
      t,
      s: words.filter((w) => `${t.name} ${t.description}`.toLowerCase().includes(w)).length,
    }))
    .filter((x) => x.s > 0)
    .sort((x, y) => y.s - x.s)
    .slice(0, max)
    .map((x) => x.t);
}

function hitRate(
  tools: readonly AnyTool[],
  queries: [string, string][],
  rank: (tools: readonly AnyTool[], q: string, max: number) => AnyTool[],
  max: number,
): number {
  return (
    queries.filter(([q, target]) => rank(tools, q, max).some((t) => t.name === target)).length /
    queries.length
  );
}

const serverJs = await buildMcpTestServer();
const mcp = new McpManager({
  appServers: Object.fromEntries(
    Object.keys(CATALOG_SERVERS).map((name) => [
      name,
      {
        command: process.execPath,
        args: [serverJs, '--catalog', name, '--name', name],
        env: {},
        disabled: false,
      },
    ]),
  ),
});
try {
  const connect = await timed(() =>
    mcp.toolsForRun({ id: 's_bench', resources: new DisposableStore() }, null),
  );
  const mcpTools = connect.value;
  if (mcpTools.length !== 200) throw new Error(`expected 200 MCP tools, got ${mcpTools.length}`);
  for (const [, target] of [...NAMING, ...DESCRIBING])
    if (!mcpTools.some((t) => t.name === target)) throw new Error(`no tool ${target}`);
  console.log(
    `connected 4 servers, ${mcpTools.length} MCP tools + ${builtinTools.length} built-ins in ${fmt(connect.ms)} ms`,
  );

  const all = [...builtinTools, ...mcpTools];
  const eager = schemaBytes(
    applyDeferral({ tools: all, mode: 'off', threshold: 25, fetchedNames: [] }).bound,
  );
  const deferred = applyDeferral({
    tools: all,
    mode: 'auto',
    threshold: 25,
    contextWindow: 200_000,
    fetchedNames: [],
  });
  report(
    'tool definitions in the first request, deferral (auto)',
    schemaBytes(deferred.bound),
    'bytes',
    eager,
    'bytes',
    'eager, tool_search off',
  );
  const builtinOnly = schemaBytes(builtinTools);
  report('  of which the built-ins', builtinOnly, 'bytes', eager, 'bytes', 'eager');
  report(
    '  of which tool_search with the 200 deferred names',
    schemaBytes(deferred.bound) - builtinOnly,
    'bytes',
    eager - builtinOnly,
    'bytes',
    'the 200 MCP schemas eager',
  );

  const max = 5;
  const named = hitRate(mcpTools, NAMING, (t, q, m) => searchTools(t, q, m).tools, max);
  const described = hitRate(mcpTools, DESCRIBING, (t, q, m) => searchTools(t, q, m).tools, max);
  const both = hitRate(
    mcpTools,
    [...NAMING, ...DESCRIBING],
    (t, q, m) => searchTools(t, q, m).tools,
    max,
  );
  const top1 = hitRate(
    mcpTools,
    [...NAMING, ...DESCRIBING],
    (t, q) => searchTools(t, q, 1).tools,
    1,
  );
  report(
    'tool_search hit rate, 50 queries, top 5',
    both * 100,
    '%',
    hitRate(mcpTools, [...NAMING, ...DESCRIBING], naive, max) * 100,
    '%',
    'naive word-count ranking',
  );
  report(
    '  25 queries naming a tool',
    named * 100,
    '%',
    hitRate(mcpTools, NAMING, naive, max) * 100,
    '%',
    'naive',
  );
  report(
    '  25 queries describing a tool',
    described * 100,
    '%',
    hitRate(mcpTools, DESCRIBING, naive, max) * 100,
    '%',
    'naive',
  );
  report(
    'tool_search hit rate, 50 queries, top 1',
    top1 * 100,
    '%',
    hitRate(mcpTools, [...NAMING, ...DESCRIBING], naive, 1) * 100,
    '%',
    'naive',
  );
  const misses = [...NAMING, ...DESCRIBING].filter(
    ([q, target]) => !searchTools(mcpTools, q, max).tools.some((t) => t.name === target),
  );
  for (const [q, target] of misses)
    console.log(
      `  miss: "${q}" -> ${target} (got ${
        searchTools(mcpTools, q, 3)
          .tools.map((t) => t.name)
          .join(', ') || 'nothing'
      })`,
    );

  // As tool_search runs: one index per step's scope, reused by that step's queries.
  const index = new SearchIndex(mcpTools);
  const search = await timed(() => {
    for (let i = 0; i < 10; i++)
      for (const [q] of [...NAMING, ...DESCRIBING]) searchTools(index, q, max);
  });
  const ref = await timed(() => {
    for (let i = 0; i < 10; i++)
      for (const [q] of [...NAMING, ...DESCRIBING]) naive(mcpTools, q, max);
  });
  report(
    'tool_search time per query over 200 tools (index built)',
    search.ms / 500,
    'ms',
    ref.ms / 500,
    'ms',
    'naive ranking',
  );
  const build = await timed(() => {
    for (let i = 0; i < 20; i++) new SearchIndex(mcpTools);
  });
  report(
    '  building the index once per step that searches',
    build.ms / 20,
    'ms',
    ref.ms / 500,
    'ms',
    'one naive query',
  );
} finally {
  await mcp.dispose();
}
