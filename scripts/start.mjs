// `npm start`: builds the web app when its build is missing or older than its sources,
// installs the strategy sandbox when it is missing, then runs the server (API, live endpoints and the built web app on one port).
// `npm start -- --role=feed` (or ROLES=…) runs only some roles (docs/architecture.md).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const webIndex = join(root, 'apps/web/dist/index.html');
const webSources = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/public',
  'packages/domain/src',
].map((p) => join(root, p));

/** Newest modification time (ms) of a file or of every file under a folder. */
function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function webBuildIsStale() {
  if (!existsSync(webIndex)) return true;
  const built = statSync(webIndex).mtimeMs;
  return webSources.some((p) => newestMtime(p) > built);
}

/** The roles this start runs (`--role=…`, `--role …` or ROLES), as main.ts reads them. */
function rolesText() {
  const argv = process.argv.slice(2);
  const named = [];
  for (let i = 0; i < argv.length; i++) {
    const match = /^--roles?=(.*)$/.exec(argv[i]);
    if (match) named.push(match[1]);
    else if (argv[i] === '--role' || argv[i] === '--roles') named.push(argv[++i] ?? '');
  }
  return named.length > 0 ? named.join(',') : (process.env.ROLES ?? '');
}

// only the `api` role serves the web app: a feed or worker node needs no build
const roles = rolesText()
  .split(',')
  .map((role) => role.trim().toLowerCase())
  .filter(Boolean);
const servesWeb = roles.length === 0 || roles.includes('api');

if (servesWeb && webBuildIsStale()) {
  console.log('Building the web app…');
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) {
    console.error('The web app build failed; see the output above.');
    process.exit(build.status ?? 1);
  }
}

// Strategy backtests need bubblewrap: install it on a fresh machine (as root through
// apt-get). Without it the product still starts and says that strategy code cannot run.
const hasBwrap = spawnSync('sh', ['-c', 'command -v bwrap'], { stdio: 'ignore' }).status === 0;
if (!hasBwrap) {
  const sandbox = spawnSync('bash', [join(root, 'scripts/ensure-sandbox.sh')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (sandbox.status !== 0) {
    console.warn('The strategy sandbox is not available: backtests will be refused (see above).');
  }
}

const server = spawn(
  process.execPath,
  ['--import', 'tsx', join(root, 'apps/server/src/main.ts'), ...process.argv.slice(2)],
  { cwd: process.cwd(), stdio: 'inherit', env: process.env },
);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
