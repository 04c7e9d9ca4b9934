export type NavigateOptions = { replace?: boolean };
type NavigateFn = (to: string, options?: NavigateOptions) => void;

let registered: NavigateFn | null = null;

/**
 * The router registers its navigate function here so that code outside React (the HTTP
 * client, store actions) can change the route without a full page load.
 * Returns the function that unregisters it.
 */
export function registerNavigate(fn: NavigateFn): () => void {
  registered = fn;
  return () => {
    if (registered === fn) registered = null;
  };
}

/** Goes to a route: through the router when one is mounted, otherwise with a page load. */
export function navigateTo(to: string, options: NavigateOptions = {}): void {
  if (registered) {
    registered(to, options);
    return;
  }
  if (options.replace) window.location.replace(to);
  else window.location.assign(to);
}
