// A tool call's name as the providers take it in a request's history. Every registered tool's name is
// in this pattern (tool-registry.ts), so a name outside it is one the model made up ('functions.read_file',
// 'read file'): its call was never run, and its result names the tool as the model wrote it. Kept after
// its retries ran out, that name made OpenAI refuse every later request of the chat ("'messages[3]
// .tool_calls[0].function.name': string does not match pattern"), and a resume of it.
const WIRE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function wireToolName(name: string): string {
  if (WIRE_NAME.test(name)) return name;
  const safe = name.slice(0, 64).replace(/[^A-Za-z0-9_-]/g, '_');
  return safe === '' ? 'unknown_tool' : safe;
}
