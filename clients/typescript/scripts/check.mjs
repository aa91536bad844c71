// `npm run check`: fails when the committed generated code (src/gen/, from
// the protos by `npm run generate`) or the committed build (dist/, from src/
// by `npm run build`) is stale. Both are committed so that the package
// installs from this directory, or from `npm pack`'s tarball, without a
// build step; this check keeps them what the sources make today.

import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = dirname(dirname(fileURLToPath(import.meta.url)));
const bin = join(pkg, 'node_modules', '.bin');

function files(root) {
  const out = new Map();
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(relative(root, path), readFileSync(path, 'utf8'));
    }
  };
  if (existsSync(root)) walk(root);
  return out;
}

function compare(what, committed, fresh, fix) {
  const have = files(committed);
  const want = files(fresh);
  const problems = [];
  for (const name of new Set([...have.keys(), ...want.keys()])) {
    if (!have.has(name)) problems.push(`${what}: missing ${name}`);
    else if (!want.has(name)) problems.push(`${what}: not made any more: ${name}`);
    else if (have.get(name) !== want.get(name)) problems.push(`${what}: stale ${name}`);
  }
  if (problems.length) problems.push(`run \`${fix}\` in clients/typescript`);
  return problems;
}

const scratch = mkdtempSync(join(tmpdir(), 'ladderd-ts-check-'));
try {
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
  const config = readFileSync(join(pkg, 'buf.gen.yaml'), 'utf8').replace('out: src/gen', `out: ${join(scratch, 'gen')}`);
  writeFileSync(join(scratch, 'buf.gen.yaml'), config.replaceAll('directory: ../', `directory: ${pkg}/../`));
  execFileSync(join(bin, 'buf'), ['generate', '--template', join(scratch, 'buf.gen.yaml')], { cwd: pkg, env, stdio: 'inherit' });
  const problems = compare('src/gen', join(pkg, 'src', 'gen'), join(scratch, 'gen'), 'npm run generate');

  cpSync(join(pkg, 'src'), join(scratch, 'src'), { recursive: true });
  execFileSync(join(bin, 'tsc'), ['-p', join(pkg, 'tsconfig.json'), '--outDir', join(scratch, 'dist')], { cwd: pkg, env, stdio: 'inherit' });
  problems.push(...compare('dist', join(pkg, 'dist'), join(scratch, 'dist'), 'npm run build'));

  for (const p of problems) console.error(p);
  if (problems.length) process.exit(1);
  console.log('src/gen and dist are what the sources make');
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
