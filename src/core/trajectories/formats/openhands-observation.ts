// The text OpenHands V0 sent the model for an observation: its conversation memory renders some
// observations from more than their `content` (openhands/memory/conversation_memory.py, before that
// CodeActAgent.get_observation_message): a command's output gets the metadata OpenHands appended
// (CmdOutputObservation.to_agent_observation), an edit through the ACI editor is the editor's output,
// not the diff kept in `content` (FileEditObservation.__str__), an error gets a closing note.
import { isObject, type JsonObject } from '../json';

/**
 * CmdOutputObservation.to_agent_observation (V0), TerminalObservation.to_llm_content (SDK): prefix, output,
 * suffix, then directory, interpreter, exit code, from the `metadata` of `extras` (V0) or the observation (SDK).
 */
export function commandText(content: string, extras: JsonObject): string {
  const meta = isObject(extras.metadata) ? extras.metadata : undefined;
  if (!meta) return content;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  let text = `${str(meta.prefix)}${content}${str(meta.suffix)}`;
  if (str(meta.working_dir) !== '') text += `\n[Current working directory: ${str(meta.working_dir)}]`;
  if (str(meta.py_interpreter_path) !== '') text += `\n[Python interpreter: ${str(meta.py_interpreter_path)}]`;
  if (typeof meta.exit_code === 'number' && meta.exit_code !== -1)
    text += `\n[Command finished with exit code ${meta.exit_code}]`;
  return text;
}

/** Before the metadata (late 2024): output, interpreter details, and the exit code always. */
function legacyCommandText(content: string, extras: JsonObject): string {
  if (typeof extras.exit_code !== 'number') return content;
  const details = typeof extras.interpreter_details === 'string' ? extras.interpreter_details : '';
  return `${content}${details}\n[Command finished with exit code ${extras.exit_code}]`;
}

/** What the model was sent for observation `event` whose content reads as `content`. */
export function observationText(event: JsonObject, content: string): string {
  const extras = isObject(event.extras) ? event.extras : {};
  switch (event.observation) {
    case 'run': {
      const text = isObject(extras.metadata) ? commandText(content, extras) : legacyCommandText(content, extras);
      // A command the person ran in the terminal answers no tool call.
      return isObject(event.tool_call_metadata) ? text : `\nObserved result of command executed by user:\n${text}`;
    }
    case 'edit':
      // Versions of early 2025 kept the diff in `content` and sent `formatted_output_and_error`; later
      // ones keep what was sent in `content` itself and no longer write that field.
      return extras.impl_source === 'oh_aci' && typeof extras.formatted_output_and_error === 'string'
        ? extras.formatted_output_and_error
        : content;
    case 'error':
      return `${content}\n[Error occurred in processing last action]`;
    case 'user_rejected':
      return `OBSERVATION:\n${content}\n[Last action has been rejected by the user]`;
    default:
      return content;
  }
}
