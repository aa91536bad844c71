// The real daemon for the tests: the one at $LADDERD_ADDRESS when it is set
// (a daemon you already run: the suite starts none), else the binary
// $LADDERD_BIN on host:0, its address read from its log. Without either the
// daemon's cases are skipped; the control calls refused without the token
// need the suite's own daemon on an address of this host that is not
// loopback ($LADDERD_BIN and $LADDERD_TEST_OFF_LOOPBACK_HOST) and are
// skipped otherwise. With $LADDERD_CONFORMANCE_STRICT=1 (cargo test sets it)
// a skip is a failure.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const STRICT = process.env.LADDERD_CONFORMANCE_STRICT === '1';

export class Daemon {
  private constructor(
    readonly address: string,
    private readonly child?: ChildProcess,
  ) {}

  /** A daemon someone else runs: nothing to start or stop. */
  static runningAt(address: string): Daemon {
    return new Daemon(address);
  }

  static async start(binary: string, host: string, adminToken?: string): Promise<Daemon> {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('LADDER') && v !== undefined) env[k] = v;
    env.LADDER_LISTEN = `${host}:0`;
    env.LADDER_TELEMETRY__LOG_FORMAT = 'json';
    if (adminToken) {
      const file = join(mkdtempSync(join(tmpdir(), 'ladderd-token-')), 'admin-token');
      writeFileSync(file, `${adminToken}\n`);
      env.LADDER_ADMIN__TOKEN_FILE = file;
    }
    const child = spawn(binary, [], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const log: string[] = [];
    const address = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${binary} did not log its serving address:\n${log.join('\n')}`)), 20_000);
      child.once('exit', (code) => reject(new Error(`${binary} exited with ${code}:\n${log.join('\n')}`)));
      createInterface({ input: child.stderr! }).on('line', (line) => {
        log.push(line);
        try {
          const fields = JSON.parse(line).fields ?? {};
          if (fields.message === 'serving') {
            clearTimeout(timer);
            resolve(fields.addr);
          }
        } catch {
          // not a JSON line
        }
      });
    });
    return new Daemon(address, child);
  }

  stop(): void {
    this.child?.kill('SIGTERM');
  }
}
