// Which field carries a chat completion's output limit. OpenAI deprecated `max_tokens` for
// `max_completion_tokens`, which every model of its API takes, and its reasoning models (o1, o3, o4-mini,
// gpt-5) refuse `max_tokens` with a 400 wherever they are served (Azure OpenAI too). Compatible servers
// read `max_tokens`: Ollama and llama-cpp-python ignore `max_completion_tokens` (the answer would go
// uncapped), vLLM before 0.6 refuses it, and vLLM, llama.cpp, LM Studio, DeepSeek, OpenRouter and Groq
// all take `max_tokens`. So `max_completion_tokens` goes to api.openai.com and to an OpenAI reasoning
// model under its own name (no vendor prefix: a router's `openai/o3` takes `max_tokens`), `max_tokens`
// everywhere else.
export type MaxTokensField = 'max_tokens' | 'max_completion_tokens';

const REASONING_MODEL = /^(o[1-9]\d*([-.]|$)|gpt-5)/i;

export function maxTokensField(baseURL: string, model: string): MaxTokensField {
  let host = '';
  try {
    host = new URL(baseURL).hostname.toLowerCase();
  } catch {
    // A base URL the SDK took but URL cannot parse: decided by the model alone.
  }
  return host === 'api.openai.com' || REASONING_MODEL.test(model) ? 'max_completion_tokens' : 'max_tokens';
}
