// The whole prompt from an OpenAI-style `prompt_tokens` beside Anthropic's cache figures, as LiteLLM
// reports Claude calls. Current LiteLLM counts both cache reads and writes in it; 1.74 (mid-2025) left the
// writes out, older versions the reads too (BerriAI/litellm#13207, #11364). Read as the whole prompt, such
// a figure under-counts by the writes (120,357 for a 141,359-token prompt in #13207's example).

/**
 * The prompt's size, or undefined when it cannot be known. A prompt smaller than its cache figures left
 * some out: below the reads, it left out both (it would hold the reads otherwise); with no reads, leaving
 * them out or not is the same; between the two, it left out the writes and perhaps the reads.
 */
export function wholePrompt(prompt: number, read: number, write: number): number | undefined {
  if (prompt >= read + write) return prompt;
  const whole = prompt + read + write;
  return (prompt < read || read === 0) && Number.isSafeInteger(whole) ? whole : undefined;
}
