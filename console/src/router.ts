/** The console's pages live under /console/<page>; the server answers each with the app. */
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/console/';

export function currentPage(): string {
  const rest = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '';
  return rest.split('/')[0] || 'overview';
}

export function go(page: string): void {
  history.pushState(null, '', `${BASE}${page}`);
  dispatchEvent(new PopStateEvent('popstate'));
}

export function usePage(): string {
  const [page, setPage] = useState(currentPage);
  useEffect(() => {
    const update = () => setPage(currentPage());
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, []);
  return page;
}
