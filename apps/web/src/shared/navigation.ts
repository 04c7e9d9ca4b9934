export type NavigateOptions = { replace?: boolean };
type NavigateFn = (to: string, options?: NavigateOptions) => void;

let registered: NavigateFn | null = null;
// Set while the app starts: a router is on its way, so a route change waits for it.
let routerComing = false;
let pending: { to: string; options: NavigateOptions } | null = null;

/**
 * The router registers its navigate function here so that code outside React (the HTTP
 * client, store actions) can change the route without a full page load. A route change
 * asked for while the app started is made now. Returns the function that unregisters it.
 */
export function registerNavigate(fn: NavigateFn): () => void {
  registered = fn;
  routerComing = false;
  if (pending) {
    const { to, options } = pending;
    pending = null;
    fn(to, options);
  }
  return () => {
    if (registered === fn) registered = null;
  };
}

/**
 * The app is starting and will mount its router: until it registers, a route change (a
 * 50002 answer during start-up) is kept for it instead of reloading the page.
 */
export function expectRouter(): void {
  if (!registered) routerComing = true;
}

/** Goes to a route: through the router when one is mounted, otherwise with a page load. */
export function navigateTo(to: string, options: NavigateOptions = {}): void {
  if (registered) {
    registered(to, options);
    return;
  }
  if (routerComing) {
    pending = { to, options };
    return;
  }
  if (options.replace) window.location.replace(to);
  else window.location.assign(to);
}
