export { mcpTools } from './mcp-tools.js'
export { McpToolError, toToolOutput as mcpResultToToolOutput } from './content.js'
export { serveMcp } from './serve.js'
export type { McpAgentEntry, ServeMcpOptions, ServeMcpTransport } from './serve.js'
export type { McpServing } from './serve-http.js'
export type {
  McpCompleter,
  McpPrompt,
  McpPromptArgument,
  McpPromptMessage,
  McpResource,
  McpResourceBody,
  McpResourceTemplate,
  McpStaticResource,
} from './serve-types.js'
export type { HttpTransportOptions } from './serve-http.js'
export type { McpLogEntry, McpLogger } from './warnings.js'
export type {
  McpHttpServer,
  McpServerSpec,
  McpStdioServer,
  McpToolDefinition,
  McpTools,
  McpToolsOptions,
} from './types.js'
