// Every built-in rule, in priority order: when two rules redact the same text, the earlier names it.
import { ADMIN_COMMAND_RULES } from './admin-commands';
import { CODE_CALL_RULES } from './code-calls';
import { COMMAND_RULES } from './commands';
import { CONFIG_FILE_RULES } from './config-files';
import { CONFIG_LINE_RULES } from './config-lines';
import { CONTEXT_RULES } from './context';
import { CSV_RULES } from './csv-columns';
import { ENV_DEFAULT_RULES } from './env-defaults';
import { KUBERNETES_RULES } from './kubernetes';
import { MAIL_SESSION_RULES } from './mail-sessions';
import { NAMED_VALUE_RULES } from './named-values';
import { PLATFORM_RULES } from './platforms';
import { PRIVATE_KEY_RULES } from './private-keys';
import { SCHEMA_VALUE_RULES } from './schema-values';
import { SECRET_STORE_RULES } from './secret-stores';
import { SERVICE_RULES } from './ai-and-services';
import { TERRAFORM_RULES } from './terraform';
import { TERRAFORM_STATE_RULES } from './terraform-state';
import { TOKEN_RULES } from './tokens';
import { YAML_BLOCK_RULES } from './yaml-blocks';
import type { SecretRule } from './types';

export type { SecretRule } from './types';

export const BUILTIN_RULES: readonly SecretRule[] = [
  ...TOKEN_RULES,
  ...SERVICE_RULES,
  ...PRIVATE_KEY_RULES,
  ...PLATFORM_RULES,
  ...CONTEXT_RULES,
  ...CONFIG_LINE_RULES,
  ...ENV_DEFAULT_RULES,
  ...YAML_BLOCK_RULES,
  ...CODE_CALL_RULES,
  ...COMMAND_RULES,
  ...ADMIN_COMMAND_RULES,
  ...SECRET_STORE_RULES,
  ...MAIL_SESSION_RULES,
  ...CONFIG_FILE_RULES,
  ...KUBERNETES_RULES,
  ...NAMED_VALUE_RULES,
  ...SCHEMA_VALUE_RULES,
  ...TERRAFORM_RULES,
  ...TERRAFORM_STATE_RULES,
  ...CSV_RULES,
];
