import { z } from 'zod';

/**
 * The commands an agent executes: the node-side primitives operations are built from. Each has a
 * payload schema (parsed by the agent before it runs anything) and a result schema (parsed by the
 * worker that waits for it). Every command is idempotent: run twice, it leaves the node as run once
 * (create-if-missing, remove-if-present), because a redelivered command after a crash may run again
 * when the journal had not yet recorded it.
 */

// apart from the schemas: the idle agent's runtime needs the labels, not zod
export { LABELS } from './labels.ts';

const name = z.string().regex(/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,127}$/, { error: 'must be 1 to 128 letters, digits, _ . -' });
const labels = z.record(z.string().regex(/^[a-z0-9.-]{1,100}$/), z.string().max(500)).default({});
/** A path inside the agent's data directory: relative, no `..`, so no command reaches outside it. */
export const dataPath = z
  .string()
  .min(1)
  .max(1000)
  .refine((path) => !path.startsWith('/') && !path.split('/').includes('..') && !path.includes('\0'), {
    error: 'must be relative to the data directory, without ..',
  });
/** A path relative to the top of a synced tree (`wp-config.php`, `wp-content/cache`), normalized. */
const treePath = z
  .string()
  .min(1)
  .max(1000)
  .refine((path) => !path.startsWith('/') && !path.split('/').includes('..') && !path.includes('\0'), {
    error: 'must be relative to the top of the tree, without ..',
  })
  .transform((path) =>
    path
      .split('/')
      .filter((part) => part !== '' && part !== '.')
      .join('/'),
  )
  .refine((path) => path !== '', { error: 'must name something inside the tree' });
const mode = z.number().int().min(0).max(0o7777);
/** A Linux capability as the engine names it (`CHOWN`, `CAP_CHOWN`) or `ALL`. */
const capability = z.string().regex(/^(CAP_)?[A-Z_]{2,40}$/, { error: 'must be a capability name such as CHOWN, or ALL' });

/** What a container is made of (container.ensure, and the throwaway container of stream.upload). */
const containerSpec = z.object({
  name,
  image: z.string().min(1).max(300),
  labels,
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string()).default({}),
  cmd: z.array(z.string()).optional(),
  network: z.string().optional().describe('A network name, or "host"'),
  ports: z
    .array(z.object({ container: z.number().int().min(1).max(65535), host: z.number().int().min(1).max(65535), host_ip: z.string().default('127.0.0.1') }))
    .default([]),
  mounts: z
    .array(
      z.union([
        z.object({
          type: z.literal('bind'),
          source: dataPath,
          target: z.string().startsWith('/'),
          read_only: z.boolean().default(false),
          /** Symbolic links in the mounted tree are never followed (the kernel's nosymfollow), nor devices, setuid or exec: a tenant's tree a walk reads by path. */
          nosymfollow: z.literal(true).optional(),
        }),
        z.object({ type: z.literal('volume'), source: name, target: z.string().startsWith('/'), read_only: z.boolean().default(false) }),
      ]),
    )
    .default([]),
  memory_bytes: z.number().int().positive().optional(),
  /** CFS quota: at most this many billionths of a CPU per second (1e9 = one core). */
  nano_cpus: z.number().int().positive().optional(),
  /** Relative weight when CPUs are contended (1024 = the engine's default). */
  cpu_shares: z.number().int().min(2).max(262_144).optional(),
  /** The most processes and threads the container may hold at once (its cgroup's pids.max). */
  pids_limit: z.number().int().positive().optional(),
  /** Nothing in the container gains privileges through setuid/setcap binaries or exec. */
  no_new_privileges: z.boolean().optional(),
  cap_drop: z.array(capability).max(64).optional(),
  cap_add: z.array(capability).max(64).optional(),
  /**
   * Containers on `network` whose addresses go into this one's /etc/hosts, so that it reaches them
   * without the engine's DNS (podman's aardvark-dns drops queries while it reloads, and can answer a
   * container slowly for many seconds after other containers come and go). Optional, unlike most
   * fields, so that containers without it keep the spec hash they were made with.
   */
  hosts: z.array(name).max(16).optional(),
  /** A recreated container keeps its address on `network`: what other containers hold in /etc/hosts stays true. */
  keep_address: z.boolean().optional(),
  start: z.boolean().default(true),
});

/** An SFTP login the agent serves (agent/sftp): jailed to `root`, its files made as `uid`:`gid`. */
const sftpUser = z.object({
  id: z.number().int().positive(),
  username: z.string().regex(/^[a-z][a-z0-9_-]{2,31}$/),
  /** argon2id in the PHC format; null: public keys only. The stored command forgets it once run. */
  password_hash: z.string().startsWith('$argon2id$').max(200).nullable(),
  /** OpenSSH public key lines (`type base64 [comment]`). */
  public_keys: z.array(z.string().max(16_384)).max(20),
  root: dataPath,
  uid: z.number().int().min(0),
  gid: z.number().int().min(0),
});
export type SftpUserEntry = z.infer<typeof sftpUser>;

export const commandKinds = {
  /**
   * Does nothing on the node and answers at once: a health check of the whole path (queue, worker,
   * long-poll, agent, journal, result) and what its cost is measured with (`node.ping`).
   */
  'agent.ping': {
    payload: z.object({}),
    result: z.object({ agent_version: z.string(), agent_time: z.string().describe('The agent clock when it ran the command (ISO 8601)') }),
  },
  'runtime.info': {
    payload: z.object({}),
    result: z.object({ hostname: z.string(), os: z.string(), arch: z.string(), docker: z.object({ version: z.string(), api_version: z.string() }) }),
  },
  'image.ensure': {
    payload: z.object({ image: z.string().min(1).max(300) }),
    result: z.object({ image: z.string(), id: z.string() }),
  },
  'network.ensure': {
    payload: z.object({ name, labels }),
    result: z.object({ id: z.string(), created: z.boolean() }),
  },
  'volume.ensure': {
    payload: z.object({ name, labels }),
    result: z.object({ name: z.string(), created: z.boolean() }),
  },
  'directory.ensure': {
    payload: z.object({ path: dataPath, mode: z.number().int().min(0).max(0o7777).default(0o755) }),
    result: z.object({ path: z.string(), created: z.boolean() }),
  },
  'directory.remove': {
    payload: z.object({ path: dataPath }),
    result: z.object({ removed: z.boolean() }),
  },
  /**
   * Moves `from` to `to` (a restored tree into a site's place): one rename, so whoever looks sees the
   * old tree or the new one. Done already (`from` gone, `to` there) is `renamed: false`; both there
   * is refused, never merged or overwritten.
   */
  'directory.rename': {
    payload: z.object({ from: dataPath, to: dataPath }),
    result: z.object({ renamed: z.boolean() }),
  },
  /**
   * Mirrors `source` into `target` in place (the target may be bind-mounted by a running container,
   * so it is never replaced): rsync's quick check (size and mtime), symlinks copied as links, mode,
   * owner and mtime kept; with `delete`, what the source lacks goes. Excluded paths are neither
   * copied nor deleted.
   */
  'directory.sync': {
    payload: z.object({ source: dataPath, target: dataPath, exclude: z.array(treePath).max(200).default([]), delete: z.boolean().default(true) }),
    result: z.object({
      files: z.number().int().describe('Entries of the source considered (directories, files, links; excluded ones not)'),
      copied: z.number().int(),
      skipped: z.number().int().describe('Already up to date (and special files, never copied)'),
      deleted: z.number().int(),
      bytes_copied: z.number().int(),
    }),
  },
  'container.ensure': {
    payload: containerSpec,
    result: z.object({ id: z.string(), created: z.boolean(), recreated: z.boolean(), running: z.boolean() }),
  },
  'container.stop': {
    payload: z.object({ name, timeout_seconds: z.number().int().min(0).max(600).default(10) }),
    result: z.object({ stopped: z.boolean() }),
  },
  /** Restarts an owned container, or starts it when it is stopped (`restarted: false`). */
  'container.restart': {
    payload: z.object({ name, timeout_seconds: z.number().int().min(0).max(600).default(10) }),
    result: z.object({ restarted: z.boolean(), running: z.boolean() }),
  },
  'container.remove': {
    payload: z.object({ name }),
    result: z.object({ removed: z.boolean() }),
  },
  'container.exec': {
    payload: z.object({
      name,
      cmd: z.array(z.string()).min(1),
      env: z.record(z.string(), z.string()).default({}),
      user: z.string().optional(),
      workdir: z.string().optional(),
      /** Exit codes that count as success (default only 0). */
      ok_exit_codes: z.array(z.number().int()).default([0]),
    }),
    result: z.object({ exit_code: z.number().int(), stdout: z.string(), stderr: z.string() }),
  },
  'files.put': {
    payload: z.object({
      files: z
        .array(
          z.object({
            path: dataPath,
            content_base64: z.string(),
            mode: z.number().int().min(0).max(0o7777).default(0o644),
            /** A secret (a private key): the control plane drops its content from the stored command once it has ended. */
            secret: z.boolean().optional(),
          }),
        )
        .min(1)
        .max(100),
    }),
    result: z.object({ written: z.number().int() }),
  },
  /**
   * Downloads an upload (GET /v1/agent/uploads/{id}, allowed while this command is unfinished) to a
   * path, checked against its size and SHA-256; a file already there with that digest is kept.
   */
  'files.fetch': {
    payload: z.object({
      upload_id: z.uuid(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/, { error: 'must be 64 lower-case hex digits' }),
      size_bytes: z.number().int().positive(),
      path: dataPath,
      mode: mode.default(0o644),
    }),
    result: z.object({ path: z.string(), bytes: z.number().int(), sha256: z.string() }),
  },
  'files.get': {
    payload: z.object({
      path: dataPath,
      max_bytes: z
        .number()
        .int()
        .positive()
        .max(8 * 1024 * 1024)
        .default(1024 * 1024),
    }),
    result: z.object({ content_base64: z.string(), truncated: z.boolean() }),
  },
  'container.stats': {
    payload: z.object({ name }),
    result: z.object({ cpu_percent: z.number(), memory_bytes: z.number().int(), memory_limit_bytes: z.number().int() }),
  },
  /**
   * Streams a command's stdout to the control plane (POST /v1/agent/streams/{stream_id}, accepted
   * once, for a stream issued to this node): in a throwaway container made from `container` and
   * removed afterwards. The upload starts with the first byte of output, and is cut (never ended
   * cleanly) when the command exits outside `ok_exit_codes`, so a receiver never takes a truncated
   * stream for a whole one. `env` holds secrets: the control plane forgets it once the command ends.
   */
  'stream.upload': {
    payload: z.object({
      stream_id: z.uuid(),
      container: containerSpec,
      cmd: z.array(z.string()).min(1),
      env: z.record(z.string(), z.string()).default({}),
      user: z.string().optional(),
      ok_exit_codes: z.array(z.number().int()).default([0]),
    }),
    result: z.object({ bytes: z.number().int(), exit_code: z.number().int() }),
  },
  /**
   * Adds or replaces SFTP users (by id), kept on the node's disk. A user removed before (revoked)
   * stays refused: a put that arrives after its removal (commands of one node may run in any order)
   * changes nothing and is listed in `refused`.
   */
  'sftp.users.put': {
    payload: z.object({ users: z.array(sftpUser).min(1).max(100) }),
    result: z.object({ written: z.number().int(), refused: z.array(z.string()) }),
  },
  /** Revokes SFTP users for good: new logins refused, open sessions closed, the name never served again. */
  'sftp.users.remove': {
    payload: z.object({
      users: z
        .array(z.object({ id: z.number().int().positive(), username: z.string().max(64) }))
        .min(1)
        .max(1000),
    }),
    result: z.object({ removed: z.number().int(), sessions_closed: z.number().int() }),
  },
  /**
   * The node's whole SFTP user set from the records (a node's reconciliation after its agent
   * started): `users` added or replaced, `revoked` removed for good, and any other user served
   * whose id is neither in `users` nor in `keep_ids` (users whose provisioning is still under way)
   * removed too: a revocation whose command never reached the node ends here.
   */
  'sftp.users.sync': {
    payload: z.object({
      users: z.array(sftpUser).max(5000),
      revoked: z.array(z.object({ id: z.number().int().positive(), username: z.string().max(64) })).max(100_000),
      keep_ids: z.array(z.number().int().positive()).max(5000),
    }),
    result: z.object({ written: z.number().int(), refused: z.array(z.string()), removed: z.number().int(), sessions_closed: z.number().int() }),
  },
  'runtime.list': {
    payload: z.object({ labels: z.record(z.string(), z.string()).default({}) }),
    result: z.object({
      containers: z.array(z.object({ name: z.string(), id: z.string(), state: z.string(), image: z.string(), labels: z.record(z.string(), z.string()) })),
      networks: z.array(z.object({ name: z.string(), id: z.string() })),
      volumes: z.array(z.object({ name: z.string() })),
    }),
  },
} as const;

export type CommandKind = keyof typeof commandKinds;
export type CommandPayload<Kind extends CommandKind> = z.input<(typeof commandKinds)[Kind]['payload']>;
export type CommandOutput<Kind extends CommandKind> = z.infer<(typeof commandKinds)[Kind]['result']>;

export function isCommandKind(kind: string): kind is CommandKind {
  return Object.hasOwn(commandKinds, kind);
}
