import { z } from 'zod';

const kind = z.enum(['production', 'staging', 'development']);

export const createEnvironmentBody = z.strictObject({
  kind: z.enum(['staging', 'development']).describe('The environment to add; production comes with the site'),
  source: kind.default('production').describe('The environment it starts as a copy of'),
});

export const pushEnvironmentBody = z.strictObject({
  target: kind.describe('The environment that receives the copy'),
  files: z.boolean().default(true).describe('Copy the files (the target keeps its own wp-config.php)'),
  database: z.boolean().default(true).describe("Copy the database, its URLs rewritten to the target's"),
});

export const updateEnvironmentBody = z.strictObject({
  php_version: z
    .string()
    .regex(/^\d+\.\d+$/, { error: 'must look like 8.2' })
    .describe('One of GET /v1/sites/php-versions; the container is recreated, files and database stay'),
});
