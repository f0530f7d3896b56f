// The heavy part of the extension (MCP SDK, YAML, later the tokenizer, stores and agent) is bundled as
// dist/features.js and loaded on first use, so activation stays cheap. Only what activation needs to
// construct lazily is exported here.
export { McpController } from './mcp/mcpController';
export { SkillsController } from './skills';
