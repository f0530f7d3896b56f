// Our messages in the OpenAI chat format, and tool specs as function tools.
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { Message } from '../messages';
import type { ToolSpec } from '../agent/provider';
import { textNestedDeeperThan } from '../json-depth';
import { wireToolName } from './wire-tool-name';

/**
 * A call's arguments as the text of one JSON object. The model's own broken JSON (a call kept after its
 * retries ran out, or cut at the output limit) is wrapped, as the Anthropic format does, so that servers
 * that parse the arguments of earlier calls (vLLM's chat templates) do not refuse every later request.
 */
export function argumentsText(args: string): string {
  if (args.trim() === '') return '{}'; // no arguments, as the tool registry reads it
  if (!textNestedDeeperThan(args))
    try {
      const v: unknown = JSON.parse(args);
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) return args; // as written: the prefix cache
    } catch {
      // wrapped below
    }
  return JSON.stringify({ _unparsed_arguments: args });
}

export function toOpenAIMessages(messages: readonly Message[]): ChatCompletionMessageParam[] {
  return messages.map((m): ChatCompletionMessageParam => {
    switch (m.role) {
      case 'system':
        return { role: 'system', content: m.content };
      case 'user':
        return { role: 'user', content: m.content };
      case 'assistant':
        if (m.toolCalls && m.toolCalls.length > 0)
          return {
            role: 'assistant',
            content: m.content === '' ? null : m.content,
            tool_calls: m.toolCalls.map((c) => ({
              id: c.id,
              type: 'function' as const,
              function: { name: wireToolName(c.name), arguments: argumentsText(c.arguments) },
            })),
          };
        return { role: 'assistant', content: m.content };
      case 'tool':
        // Imported histories may carry tool output without a call id: the protocol needs one, so say it as the user.
        if (m.toolCallId === undefined) return { role: 'user', content: m.content };
        return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
    }
  });
}

export function toOpenAITools(tools: readonly ToolSpec[]): ChatCompletionTool[] {
  return tools.map((t) => ({
    type: 'function' as const,
    function: { name: t.name, description: t.description, parameters: t.inputSchema },
  }));
}
