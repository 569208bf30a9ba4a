import { z } from 'zod';
import { WP_CLI_COMMAND_MAX_CHARS } from '../../shared/domains/wordpress/wp-cli-command.ts';
import { TABLE_NAME, WP_CLI_TIMEOUT } from '../../shared/domains/wordpress/wordpress.operations.ts';

export const wpCliBody = z
  .object({
    command: z
      .string()
      .max(WP_CLI_COMMAND_MAX_CHARS)
      .describe(
        "A WP-CLI command as typed after `wp` (a leading `wp` is dropped), split shell-style (quotes, backslashes; no expansion, no shell). Berth's subset and refusals: docs/wp-cli.md.",
      ),
    timeout_seconds: z
      .number()
      .int()
      .min(1)
      .max(WP_CLI_TIMEOUT.max)
      .default(WP_CLI_TIMEOUT.default)
      .describe('How long the command may run before it is stopped (the step fails).'),
  })
  .strict();

export const searchReplaceBody = z
  .object({
    search: z.string().min(1).max(2000).describe('The text to find (exact, case-sensitive), also inside PHP-serialized and JSON-escaped values.'),
    replace: z.string().max(2000).describe('What replaces it; serialized lengths are rewritten so the data stays valid.'),
    dry_run: z.boolean().default(true).describe('Only count what would change (the default); `false` writes.'),
    tables: z
      .array(z.string().regex(TABLE_NAME))
      .min(1)
      .max(200)
      .optional()
      .describe("Only these tables; each must be one of the site's own (its prefix), else the operation fails naming them. Default: all of them."),
  })
  .strict();
