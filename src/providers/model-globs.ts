/**
 * The models a channel serves are written as globs (`tune-*`, `*`): `*` stands for any run of
 * characters, everything else for itself. Read by the router and by the model lists.
 */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(
    `^${glob
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
}
