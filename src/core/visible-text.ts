// Providers refuse text with no visible character in some places (Anthropic: "text content blocks must
// contain non-whitespace text"); a bare newline a model wrote before its tool calls, or a command that
// printed nothing, must not fail every later request. One rule for every provider's conversion.

export const visible = (text: string): boolean => text.trim() !== '';

/** What a tool result with nothing visible in it says instead. */
export const EMPTY_OUTPUT = '(empty output)';
