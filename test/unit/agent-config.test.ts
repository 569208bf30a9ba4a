import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadAgentConfig } from '../../agent/config.ts';
import { useTempDirs } from '../helpers/temp-dirs.ts';

const tempDir = useTempDirs('berth-agent-config-');
const noFile = () => path.join(tempDir(), 'absent.json');
/** An empty config file: a file at the default path on this machine must not leak into the tests. */
function emptyFile(): string {
  const file = path.join(tempDir(), 'empty.json');
  fs.writeFileSync(file, '{}');
  return file;
}

function problem(env: Record<string, string>): string {
  try {
    loadAgentConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a configuration error');
}

describe('agent configuration', () => {
  it('runs on defaults with only the control plane URL', () => {
    const config = loadAgentConfig({ AGENT_CONFIG: emptyFile(), AGENT_CONTROL_PLANE_URL: 'https://berth.example.com/' });
    expect(config).toMatchObject({
      controlPlaneUrl: 'https://berth.example.com',
      dataDir: '/var/lib/berth-agent',
      dockerSocket: '/var/run/docker.sock',
      enrollmentToken: undefined,
      concurrency: 16,
      allowPull: false,
      shutdownGraceMs: 20_000,
      streamPartMs: 15_000,
    });
    expect(config.agentVersion).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('names the variable (and the file key) of a missing or bad value', () => {
    expect(problem({ AGENT_CONFIG: emptyFile() })).toMatch(/AGENT_CONTROL_PLANE_URL \(or "control_plane_url" in .*empty.json\): required/);
    expect(problem({ AGENT_CONFIG: emptyFile(), AGENT_CONTROL_PLANE_URL: 'https://x.example', AGENT_CONCURRENCY: '0' })).toMatch(
      /AGENT_CONCURRENCY \(or "concurrency" in .*\): /,
    );
    expect(problem({ AGENT_CONFIG: emptyFile(), AGENT_CONTROL_PLANE_URL: 'https://x.example', AGENT_ALLOW_PULL: 'maybe' })).toMatch(
      /AGENT_ALLOW_PULL \(or "allow_pull" in .*\): /,
    );
    // a part longer than the control plane's request timeout would be cut mid-way
    expect(problem({ AGENT_CONFIG: emptyFile(), AGENT_CONTROL_PLANE_URL: 'https://x.example', AGENT_STREAM_PART_MS: '30000' })).toMatch(
      /AGENT_STREAM_PART_MS \(or "stream_part_ms" in .*\): /,
    );
    const file = path.join(tempDir(), 'config.json');
    fs.writeFileSync(file, JSON.stringify({ control_plane_url: 'https://x.example', enrollment_token: 'short' }));
    expect(problem({ AGENT_CONFIG: file })).toContain(`AGENT_ENROLLMENT_TOKEN (or "enrollment_token" in ${file}): `);
  });

  it('requires https except to loopback or with AGENT_ALLOW_INSECURE=1', () => {
    expect(problem({ AGENT_CONFIG: emptyFile(), AGENT_CONTROL_PLANE_URL: 'http://berth.example.com' })).toMatch(/must be https.*AGENT_ALLOW_INSECURE=1/);
    for (const url of ['http://127.0.0.1:8080', 'http://localhost:8080', 'http://[::1]:8080']) {
      expect(loadAgentConfig({ AGENT_CONFIG: emptyFile(), AGENT_CONTROL_PLANE_URL: url }).controlPlaneUrl).toBe(url);
    }
    expect(loadAgentConfig({ AGENT_CONFIG: emptyFile(), AGENT_CONTROL_PLANE_URL: 'http://10.0.0.5:8080', AGENT_ALLOW_INSECURE: '1' }).controlPlaneUrl).toBe(
      'http://10.0.0.5:8080',
    );
  });

  it('reads the file the installer writes; the environment wins over it', () => {
    const dir = tempDir();
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        control_plane_url: 'https://berth.example.com',
        data_dir: path.join(dir, 'data'),
        docker_socket: '/run/podman/podman.sock',
        enrollment_token: `berth_enr_${'x'.repeat(40)}`,
        concurrency: 2,
      }),
    );
    const fromFile = loadAgentConfig({ AGENT_CONFIG: file });
    expect(fromFile).toMatchObject({ dataDir: path.join(dir, 'data'), dockerSocket: '/run/podman/podman.sock', concurrency: 2, configPath: file });
    expect(fromFile.enrollmentToken).toBe(`berth_enr_${'x'.repeat(40)}`);
    expect(loadAgentConfig({ AGENT_CONFIG: file, AGENT_CONCURRENCY: '8' }).concurrency).toBe(8);
  });

  it('refuses a named config file that is missing, not JSON, or has unknown keys', () => {
    expect(problem({ AGENT_CONFIG: noFile(), AGENT_CONTROL_PLANE_URL: 'https://x.example' })).toMatch(/AGENT_CONFIG: cannot read/);
    const file = path.join(tempDir(), 'config.json');
    fs.writeFileSync(file, '{ nope');
    expect(problem({ AGENT_CONFIG: file })).toMatch(/AGENT_CONFIG: .* is not JSON/);
    fs.writeFileSync(file, JSON.stringify({ control_plane_url: 'https://x.example', contrl_plane: 'typo' }));
    expect(problem({ AGENT_CONFIG: file })).toMatch(/unknown keys: contrl_plane/);
  });
});
