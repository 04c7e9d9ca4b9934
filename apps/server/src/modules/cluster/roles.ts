/**
 * The process roles (docs/architecture.md, "Process roles, feed election and Redis"): `api`
 * serves HTTP and the live gateway, `feed` runs the market simulator, the quote cache and
 * the trigger engine (one active feed at a time, elected), `worker` runs AI tasks. One
 * process runs all three by default; several roles may share a process.
 */
export const ROLES = ['api', 'feed', 'worker'] as const;
export type Role = (typeof ROLES)[number];

/** Thrown for a role list naming something that is not a role. */
export class RolesError extends Error {}

/** The roles of a comma list (`api`, `feed,worker`); all of them when the list is empty. */
export function parseRoles(text: string | undefined): Role[] {
  const names = (text ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  if (names.length === 0) return [...ROLES];
  const roles = new Set<Role>();
  for (const name of names) {
    const role = ROLES.find((r) => r === name);
    if (!role) {
      throw new RolesError(`${name} is not a role (roles: ${ROLES.join(', ')})`);
    }
    roles.add(role);
  }
  return ROLES.filter((r) => roles.has(r));
}

/**
 * The `--role` arguments of the command line (`--role=api`, `--role api`, repeated or a
 * comma list), joined as one ROLES value; undefined when there are none.
 */
export function rolesFromArgv(argv: readonly string[]): string | undefined {
  const values: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg.startsWith('--role=')) values.push(arg.slice('--role='.length));
    else if (arg === '--role' || arg === '--roles') {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new RolesError('--role needs a value');
      values.push(next);
      i += 1;
    } else if (arg.startsWith('--roles=')) values.push(arg.slice('--roles='.length));
  }
  return values.length > 0 ? values.join(',') : undefined;
}
