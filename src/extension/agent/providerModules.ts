// Each provider's SDK is evaluated when that provider is first used, not when the features bundle loads.
// esbuild bundles a module reached through require() as an initializer that runs on the first call, so
// a session with the OpenAI-compatible endpoint never evaluates the Anthropic SDK (a third of
// dist/features.js) and the demo model or vscode.lm evaluate neither. Importing these modules statically
// anywhere else undoes this: test/unit/bundle-laziness.test.ts checks the bundle.
import type * as AnthropicModule from '../../core/providers/anthropic';
import type * as OpenAIModule from '../../core/providers/openai';

export function anthropicModule(): typeof AnthropicModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- evaluated on first use, on purpose
  return require('../../core/providers/anthropic') as typeof AnthropicModule;
}

export function openAIModule(): typeof OpenAIModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- evaluated on first use, on purpose
  return require('../../core/providers/openai') as typeof OpenAIModule;
}
