// 200 realistic MCP tools in four servers of five services each (ten tools a service), served by
// mcp-test-server.ts with `--catalog <server>`. The deferral benchmark connects all four and asks
// tool_search for them by name and by description. Params: `name:type` (`?` = optional).

export interface CatalogTool {
  name: string;
  description: string;
  params: string;
}

type Service = [service: string, tools: [name: string, description: string, params: string][]];

const DEV: Service[] = [
  [
    'github',
    [
      [
        'create_issue',
        'Open a new issue in a GitHub repository with a title, body and labels',
        'repo:string,title:string,body?:string,labels?:array',
      ],
      [
        'list_issues',
        'List issues of a GitHub repository filtered by state, label or assignee',
        'repo:string,state?:string,label?:string,assignee?:string',
      ],
      [
        'create_pull_request',
        'Open a pull request from a head branch into a base branch',
        'repo:string,head:string,base:string,title:string,body?:string',
      ],
      [
        'merge_pull_request',
        'Merge an open pull request using merge, squash or rebase',
        'repo:string,number:integer,method?:string',
      ],
      [
        'get_file_contents',
        'Read the contents of a file at a ref in a GitHub repository',
        'repo:string,path:string,ref?:string',
      ],
      [
        'search_code',
        'Search source code across GitHub repositories with the code search syntax',
        'query:string,per_page?:integer',
      ],
      [
        'list_commits',
        'List the commits on a branch of a repository, newest first',
        'repo:string,branch?:string,since?:string',
      ],
      [
        'create_branch',
        'Create a new branch in a repository from an existing ref',
        'repo:string,branch:string,from?:string',
      ],
      [
        'add_issue_comment',
        'Add a comment to an issue or pull request',
        'repo:string,number:integer,body:string',
      ],
      [
        'list_workflow_runs',
        'List GitHub Actions workflow runs and their conclusions',
        'repo:string,workflow?:string,status?:string',
      ],
    ],
  ],
  [
    'gitlab',
    [
      [
        'create_merge_request',
        'Create a merge request in a GitLab project',
        'project:string,source:string,target:string,title:string',
      ],
      [
        'list_pipelines',
        'List CI pipelines of a GitLab project with their status',
        'project:string,ref?:string',
      ],
      ['retry_job', 'Retry a failed CI job in a GitLab pipeline', 'project:string,job_id:integer'],
      ['get_job_log', 'Fetch the log output of a GitLab CI job', 'project:string,job_id:integer'],
      ['list_projects', 'List GitLab projects visible to the token', 'search?:string'],
      [
        'create_tag',
        'Create a git tag on a GitLab project at a ref',
        'project:string,tag:string,ref:string',
      ],
      [
        'protect_branch',
        'Protect a branch against force pushes and unreviewed merges',
        'project:string,branch:string',
      ],
      [
        'list_members',
        'List the members of a GitLab project and their access levels',
        'project:string',
      ],
      [
        'create_snippet',
        'Create a code snippet in GitLab',
        'title:string,content:string,visibility?:string',
      ],
      ['approve_merge_request', 'Approve a GitLab merge request', 'project:string,iid:integer'],
    ],
  ],
  [
    'jira',
    [
      [
        'create_ticket',
        'Create a Jira ticket in a project with a summary and type',
        'project:string,summary:string,type?:string,description?:string',
      ],
      [
        'transition_ticket',
        'Move a Jira ticket to another workflow status such as In Progress or Done',
        'key:string,status:string',
      ],
      ['search_jql', 'Find Jira tickets with a JQL query', 'jql:string,max?:integer'],
      ['assign_ticket', 'Assign a Jira ticket to a user', 'key:string,user:string'],
      ['log_work', 'Log time spent on a Jira ticket', 'key:string,minutes:integer,comment?:string'],
      ['get_ticket', 'Get the fields, comments and history of a Jira ticket', 'key:string'],
      ['list_sprints', 'List the sprints of a Jira board', 'board:integer,state?:string'],
      ['add_comment', 'Comment on a Jira ticket', 'key:string,body:string'],
      [
        'link_tickets',
        'Link two Jira tickets as blocks, relates to or duplicates',
        'from:string,to:string,type:string',
      ],
      [
        'create_epic',
        'Create an epic that groups related Jira tickets',
        'project:string,name:string',
      ],
    ],
  ],
  [
    'linear',
    [
      [
        'create_linear_issue',
        'Create an issue in a Linear team',
        'team:string,title:string,description?:string,priority?:integer',
      ],
      [
        'update_linear_issue',
        'Change the title, state, priority or assignee of a Linear issue',
        'id:string,state?:string,priority?:integer,assignee?:string',
      ],
      ['list_cycles', 'List the cycles of a Linear team', 'team:string'],
      ['list_linear_projects', 'List Linear projects and their progress', 'team?:string'],
      ['search_linear', 'Full-text search over Linear issues', 'query:string'],
      ['get_roadmap', 'Show the Linear roadmap with project target dates', ''],
      ['add_label', 'Attach a label to a Linear issue', 'id:string,label:string'],
      ['archive_issue', 'Archive a Linear issue', 'id:string'],
      ['list_team_members', 'List the members of a Linear team', 'team:string'],
      ['create_comment', 'Post a comment on a Linear issue', 'id:string,body:string'],
    ],
  ],
  [
    'sentry',
    [
      [
        'list_sentry_issues',
        'List unresolved Sentry error groups of a project, most frequent first',
        'project:string,query?:string',
      ],
      [
        'get_event',
        'Get a Sentry event with its stack trace and breadcrumbs',
        'project:string,event_id:string',
      ],
      ['resolve_issue', 'Mark a Sentry issue as resolved', 'issue_id:string'],
      [
        'ignore_issue',
        'Ignore a Sentry issue until it happens again a number of times',
        'issue_id:string,count?:integer',
      ],
      ['list_releases', 'List the releases Sentry knows for a project', 'project:string'],
      [
        'create_release',
        'Create a Sentry release and associate commits',
        'version:string,project:string',
      ],
      [
        'get_issue_stats',
        'Get event counts over time for a Sentry issue',
        'issue_id:string,period?:string',
      ],
      ['list_alert_rules', 'List the alert rules of a Sentry project', 'project:string'],
      ['mute_alert', 'Mute a Sentry alert rule for a while', 'rule_id:string,minutes:integer'],
      [
        'assign_sentry_issue',
        'Assign a Sentry issue to a team member',
        'issue_id:string,user:string',
      ],
    ],
  ],
];

const CLOUD: Service[] = [
  [
    's3',
    [
      ['list_buckets', 'List the S3 buckets of the account', ''],
      [
        'list_objects',
        'List the objects in an S3 bucket under a prefix',
        'bucket:string,prefix?:string',
      ],
      ['get_object', 'Download an object from an S3 bucket', 'bucket:string,key:string'],
      [
        'put_object',
        'Upload content to a key in an S3 bucket',
        'bucket:string,key:string,content:string',
      ],
      ['delete_object', 'Delete an object from an S3 bucket', 'bucket:string,key:string'],
      [
        'presign_url',
        'Create a presigned URL for temporary access to an S3 object',
        'bucket:string,key:string,expires?:integer',
      ],
      ['get_bucket_policy', 'Show the access policy attached to an S3 bucket', 'bucket:string'],
      [
        'copy_object',
        'Copy an S3 object to another bucket or key',
        'from_bucket:string,from_key:string,to_bucket:string,to_key:string',
      ],
      [
        'set_lifecycle',
        'Configure lifecycle rules that expire or archive S3 objects',
        'bucket:string,days:integer',
      ],
      [
        'get_bucket_size',
        'Compute the total size and object count of an S3 bucket',
        'bucket:string',
      ],
    ],
  ],
  [
    'docker',
    [
      ['list_containers', 'List Docker containers, running or all', 'all?:boolean'],
      [
        'run_container',
        'Start a new Docker container from an image',
        'image:string,name?:string,ports?:array',
      ],
      ['stop_container', 'Stop a running Docker container', 'id:string'],
      ['container_logs', 'Show the logs of a Docker container', 'id:string,tail?:integer'],
      ['build_image', 'Build a Docker image from a Dockerfile', 'context:string,tag:string'],
      ['list_images', 'List local Docker images and their sizes', ''],
      ['remove_image', 'Remove a local Docker image', 'image:string'],
      [
        'exec_in_container',
        'Execute a command inside a running Docker container',
        'id:string,command:string',
      ],
      ['prune_volumes', 'Remove unused Docker volumes to free disk space', ''],
      [
        'inspect_container',
        'Show the full configuration and state of a Docker container',
        'id:string',
      ],
    ],
  ],
  [
    'kubernetes',
    [
      [
        'list_pods',
        'List Kubernetes pods in a namespace with their status',
        'namespace?:string,selector?:string',
      ],
      [
        'describe_pod',
        'Describe a Kubernetes pod: events, containers and conditions',
        'name:string,namespace?:string',
      ],
      [
        'pod_logs',
        'Stream the logs of a container in a Kubernetes pod',
        'name:string,container?:string,namespace?:string',
      ],
      [
        'scale_deployment',
        'Change the replica count of a Kubernetes deployment',
        'name:string,replicas:integer,namespace?:string',
      ],
      [
        'rollout_restart',
        'Restart the pods of a Kubernetes deployment with a rolling update',
        'name:string,namespace?:string',
      ],
      ['apply_manifest', 'Apply a YAML manifest to the Kubernetes cluster', 'yaml:string'],
      ['list_namespaces', 'List the namespaces of the Kubernetes cluster', ''],
      ['get_events', 'Get recent Kubernetes events for a namespace', 'namespace?:string'],
      ['port_forward', 'Forward a local port to a Kubernetes pod', 'name:string,port:integer'],
      [
        'delete_pod',
        'Delete a Kubernetes pod so its controller recreates it',
        'name:string,namespace?:string',
      ],
    ],
  ],
  [
    'lambda',
    [
      ['list_functions', 'List the AWS Lambda functions of a region', 'region?:string'],
      [
        'invoke_function',
        'Invoke an AWS Lambda function with a JSON payload',
        'name:string,payload?:string',
      ],
      [
        'deploy_function',
        'Deploy new code to an AWS Lambda function from a zip',
        'name:string,zip_path:string',
      ],
      [
        'get_function_logs',
        'Read the CloudWatch logs of a Lambda function',
        'name:string,minutes?:integer',
      ],
      ['set_env_vars', 'Set environment variables of a Lambda function', 'name:string,vars:object'],
      ['list_versions', 'List the published versions of a Lambda function', 'name:string'],
      [
        'create_alias',
        'Point a Lambda alias at a version',
        'name:string,alias:string,version:string',
      ],
      ['get_concurrency', 'Show the reserved concurrency of a Lambda function', 'name:string'],
      [
        'add_permission',
        'Grant a service permission to invoke a Lambda function',
        'name:string,principal:string',
      ],
      ['delete_function', 'Delete an AWS Lambda function', 'name:string'],
    ],
  ],
  [
    'datadog',
    [
      ['query_metrics', 'Query a Datadog metric time series', 'query:string,from:string,to:string'],
      ['list_monitors', 'List Datadog monitors and whether they are alerting', 'tags?:array'],
      ['mute_monitor', 'Silence a Datadog monitor for a period', 'id:integer,minutes?:integer'],
      [
        'search_logs',
        'Search Datadog logs with a query over a time range',
        'query:string,from?:string',
      ],
      ['create_dashboard', 'Create a Datadog dashboard from widgets', 'title:string,widgets:array'],
      ['list_incidents', 'List open Datadog incidents', ''],
      ['get_slo', 'Show a Datadog service level objective and its error budget', 'id:string'],
      ['post_event', 'Post an event to the Datadog event stream', 'title:string,text:string'],
      ['list_hosts', 'List hosts reporting to Datadog', 'filter?:string'],
      ['get_trace', 'Get an APM trace with its spans by id', 'trace_id:string'],
    ],
  ],
];

const COMMS: Service[] = [
  [
    'slack',
    [
      [
        'send_message',
        'Post a message to a Slack channel or thread',
        'channel:string,text:string,thread_ts?:string',
      ],
      ['list_channels', 'List the Slack channels of the workspace', 'types?:string'],
      [
        'channel_history',
        'Read recent messages of a Slack channel',
        'channel:string,limit?:integer',
      ],
      [
        'add_reaction',
        'React to a Slack message with an emoji',
        'channel:string,ts:string,emoji:string',
      ],
      ['search_messages', 'Search Slack messages across channels', 'query:string'],
      ['set_status', 'Set your Slack status text and emoji', 'text:string,emoji?:string'],
      ['upload_file', 'Share a file into a Slack channel', 'channel:string,path:string'],
      ['list_users', 'List the members of the Slack workspace', ''],
      ['create_channel', 'Create a new Slack channel', 'name:string,private?:boolean'],
      ['pin_message', 'Pin a message in a Slack channel', 'channel:string,ts:string'],
    ],
  ],
  [
    'gmail',
    [
      [
        'send_email',
        'Send an email with subject and body to recipients',
        'to:array,subject:string,body:string',
      ],
      [
        'search_inbox',
        'Search the Gmail inbox with Gmail query operators',
        'query:string,max?:integer',
      ],
      ['read_email', 'Read a Gmail message by id with headers and body', 'id:string'],
      [
        'create_draft',
        'Save an email draft without sending it',
        'to:array,subject:string,body:string',
      ],
      ['add_label_to_email', 'Apply a Gmail label to messages', 'ids:array,label:string'],
      ['archive_email', 'Archive Gmail messages out of the inbox', 'ids:array'],
      ['list_labels', 'List Gmail labels', ''],
      ['reply_to_email', 'Reply to a Gmail thread', 'thread_id:string,body:string'],
      [
        'get_attachment',
        'Download an attachment from a Gmail message',
        'message_id:string,attachment_id:string',
      ],
      [
        'create_filter',
        'Create a Gmail filter that labels or forwards matching mail',
        'criteria:object,action:object',
      ],
    ],
  ],
  [
    'calendar',
    [
      [
        'list_events',
        'List calendar events between two dates',
        'from:string,to:string,calendar?:string',
      ],
      [
        'create_event',
        'Schedule a calendar event with attendees',
        'title:string,start:string,end:string,attendees?:array',
      ],
      [
        'find_free_time',
        'Find time slots when all attendees are free',
        'attendees:array,duration_minutes:integer',
      ],
      [
        'update_event',
        'Reschedule or edit a calendar event',
        'id:string,start?:string,end?:string',
      ],
      ['delete_event', 'Cancel a calendar event', 'id:string'],
      [
        'respond_to_invite',
        'Accept, decline or tentatively accept a meeting invitation',
        'id:string,response:string',
      ],
      ['list_calendars', 'List the calendars you can see', ''],
      [
        'set_out_of_office',
        'Block time as out of office with an auto-decline',
        'start:string,end:string',
      ],
      [
        'get_event_details',
        'Show a calendar event with its attendees and conferencing link',
        'id:string',
      ],
      [
        'add_reminder',
        'Add a reminder notification to a calendar event',
        'id:string,minutes:integer',
      ],
    ],
  ],
  [
    'twilio',
    [
      ['send_sms', 'Send an SMS text message to a phone number', 'to:string,body:string'],
      ['make_call', 'Place a phone call that plays a message', 'to:string,message:string'],
      ['list_messages', 'List sent and received SMS messages', 'to?:string,from?:string'],
      ['lookup_number', 'Look up carrier and type information of a phone number', 'number:string'],
      ['buy_number', 'Buy a new Twilio phone number in an area code', 'area_code:string'],
      ['list_numbers', 'List the phone numbers of the Twilio account', ''],
      ['send_whatsapp', 'Send a WhatsApp message through Twilio', 'to:string,body:string'],
      ['get_call_recording', 'Fetch the recording of a phone call', 'call_sid:string'],
      ['verify_start', 'Send a one-time verification code to a phone', 'to:string,channel?:string'],
      ['verify_check', 'Check a one-time verification code', 'to:string,code:string'],
    ],
  ],
  [
    'zendesk',
    [
      [
        'create_support_ticket',
        'Create a Zendesk support ticket for a customer',
        'subject:string,body:string,requester:string',
      ],
      [
        'list_support_tickets',
        'List Zendesk tickets by status or assignee',
        'status?:string,assignee?:string',
      ],
      [
        'reply_to_ticket',
        'Reply publicly to a customer on a Zendesk ticket',
        'id:integer,body:string',
      ],
      [
        'add_internal_note',
        'Add a private internal note to a Zendesk ticket',
        'id:integer,body:string',
      ],
      ['solve_ticket', 'Mark a Zendesk ticket as solved', 'id:integer'],
      ['get_customer', 'Look up a Zendesk customer profile and their tickets', 'email:string'],
      ['list_macros', 'List the Zendesk macros for canned replies', ''],
      ['apply_macro', 'Apply a Zendesk macro to a ticket', 'id:integer,macro_id:integer'],
      [
        'satisfaction_ratings',
        'Get customer satisfaction ratings for a period',
        'from:string,to:string',
      ],
      [
        'escalate_ticket',
        'Escalate a Zendesk ticket to a higher support tier',
        'id:integer,group:string',
      ],
    ],
  ],
];

const DATA: Service[] = [
  [
    'postgres',
    [
      [
        'run_query',
        'Run a read-only SQL query against the Postgres database',
        'sql:string,limit?:integer',
      ],
      ['list_tables', 'List the tables of a Postgres schema', 'schema?:string'],
      ['describe_table', 'Show the columns, types and indexes of a Postgres table', 'table:string'],
      ['explain_query', 'Show the Postgres query plan of a SQL statement', 'sql:string'],
      ['list_slow_queries', 'List the slowest queries from pg_stat_statements', 'limit?:integer'],
      ['table_sizes', 'Show the disk size of each Postgres table', ''],
      ['list_locks', 'List the locks currently held in Postgres and who waits on them', ''],
      ['kill_backend', 'Terminate a Postgres backend process by pid', 'pid:integer'],
      [
        'create_index',
        'Create an index on columns of a Postgres table',
        'table:string,columns:array',
      ],
      ['vacuum_table', 'Vacuum and analyze a Postgres table', 'table:string'],
    ],
  ],
  [
    'stripe',
    [
      ['create_customer', 'Create a Stripe customer with an email', 'email:string,name?:string'],
      ['list_charges', 'List Stripe charges, newest first', 'customer?:string,limit?:integer'],
      ['refund_charge', 'Refund a Stripe charge fully or partly', 'charge:string,amount?:integer'],
      [
        'create_invoice',
        'Create and send a Stripe invoice to a customer',
        'customer:string,items:array',
      ],
      ['list_subscriptions', 'List the subscriptions of a Stripe customer', 'customer:string'],
      [
        'cancel_subscription',
        'Cancel a Stripe subscription now or at period end',
        'subscription:string,at_period_end?:boolean',
      ],
      ['get_balance', 'Show the Stripe account balance', ''],
      [
        'create_payment_link',
        'Create a Stripe payment link for a price',
        'price:string,quantity?:integer',
      ],
      ['list_disputes', 'List open Stripe disputes and chargebacks', ''],
      ['create_coupon', 'Create a Stripe discount coupon', 'percent_off:integer,duration:string'],
    ],
  ],
  [
    'notion',
    [
      ['search_pages', 'Search Notion pages and databases by title', 'query:string'],
      ['get_page', 'Read a Notion page with its blocks', 'page_id:string'],
      [
        'create_page',
        'Create a Notion page under a parent page',
        'parent:string,title:string,content?:string',
      ],
      [
        'append_blocks',
        'Append paragraphs or lists to a Notion page',
        'page_id:string,blocks:array',
      ],
      [
        'query_database',
        'Query a Notion database with filters and sorts',
        'database_id:string,filter?:object',
      ],
      [
        'update_database_row',
        'Update properties of a row in a Notion database',
        'page_id:string,properties:object',
      ],
      ['list_databases', 'List the Notion databases shared with the integration', ''],
      ['add_page_comment', 'Comment on a Notion page', 'page_id:string,text:string'],
      ['duplicate_page', 'Duplicate a Notion page', 'page_id:string'],
      ['move_page', 'Move a Notion page under another parent', 'page_id:string,parent:string'],
    ],
  ],
  [
    'salesforce',
    [
      ['soql_query', 'Run a SOQL query against Salesforce', 'soql:string'],
      [
        'create_lead',
        'Create a sales lead in Salesforce',
        'name:string,company:string,email?:string',
      ],
      [
        'convert_lead',
        'Convert a Salesforce lead into an account, contact and opportunity',
        'lead_id:string',
      ],
      [
        'update_opportunity',
        'Change the stage or amount of a Salesforce opportunity',
        'id:string,stage?:string,amount?:number',
      ],
      ['list_opportunities', 'List open Salesforce opportunities in the pipeline', 'owner?:string'],
      ['get_account', 'Get a Salesforce account with its contacts', 'id:string'],
      ['log_call', 'Log a call activity on a Salesforce record', 'record_id:string,notes:string'],
      [
        'create_task',
        'Create a follow-up task in Salesforce',
        'subject:string,due:string,owner?:string',
      ],
      ['sales_forecast', 'Show the quarterly sales forecast', 'quarter?:string'],
      ['list_campaigns', 'List Salesforce marketing campaigns', ''],
    ],
  ],
  [
    'figma',
    [
      ['get_figma_file', 'Get the document tree of a Figma file', 'file_key:string'],
      [
        'export_frames',
        'Export Figma frames as PNG or SVG images',
        'file_key:string,ids:array,format?:string',
      ],
      [
        'list_components',
        'List the published components of a Figma team library',
        'team_id:string',
      ],
      ['get_comments', 'Read the comments on a Figma file', 'file_key:string'],
      [
        'post_figma_comment',
        'Comment on a Figma file at a position',
        'file_key:string,message:string',
      ],
      ['list_figma_projects', 'List the projects of a Figma team', 'team_id:string'],
      ['get_styles', 'List the color and text styles of a Figma file', 'file_key:string'],
      ['get_versions', 'List the version history of a Figma file', 'file_key:string'],
      [
        'inspect_node',
        'Show the CSS-like properties of a Figma node',
        'file_key:string,node_id:string',
      ],
      ['list_figma_files', 'List the files of a Figma project', 'project_id:string'],
    ],
  ],
];

export const CATALOG_SERVERS = { dev: DEV, cloud: CLOUD, comms: COMMS, data: DATA } as const;
export type CatalogServer = keyof typeof CATALOG_SERVERS;

/** The tools one catalog server exposes; names are `<service>_<tool>` unless the tool already says its service. */
export function catalogTools(server: CatalogServer): CatalogTool[] {
  return CATALOG_SERVERS[server].flatMap(([service, tools]) =>
    tools.map(([name, description, params]) => ({
      name: name.includes(service) ? name : `${service}_${name}`,
      description,
      params,
    })),
  );
}

/** `repo:string,labels?:array` -> a JSON Schema object. */
export function paramsToJsonSchema(params: string): {
  type: 'object';
  properties: Record<string, { type: string; description: string }>;
  required: string[];
} {
  const properties: Record<string, { type: string; description: string }> = {};
  const required: string[] = [];
  for (const p of params.split(',').filter(Boolean)) {
    const [rawName, type] = p.split(':') as [string, string];
    const optional = rawName.endsWith('?');
    const name = optional ? rawName.slice(0, -1) : rawName;
    properties[name] = { type, description: `The ${name.replace(/_/g, ' ')}` };
    if (!optional) required.push(name);
  }
  return { type: 'object', properties, required };
}
