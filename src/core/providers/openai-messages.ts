// Our messages in the OpenAI chat format, and tool specs as function tools.
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { Message } from '../messages';
import type { ToolSpec } from '../agent/provider';

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
              function: { name: c.name, arguments: c.arguments },
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
