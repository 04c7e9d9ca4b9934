import { App as AntApp } from 'antd';
import { useEffect } from 'react';
import { registerAppApi } from '../shared/appApi';
import { registerNotifier } from '../shared/notify';

/** Toasts sit in the toolbar's height (44 px), above the charts and the bottom panel. */
const TOAST_TOP = 4;

/** Gives plain actions and the app's components the themed APIs of the antd App. */
function Register() {
  const api = AntApp.useApp();
  useEffect(() => registerAppApi(api), [api]);
  useEffect(() => registerNotifier(api.message), [api.message]);
  return null;
}

/**
 * antd's App with no element of its own (the page's root element is the providers' own):
 * its message, notification and modal holders. A chunk of its own (shared/appApi.ts).
 */
export default function AppApiHost() {
  return (
    // At most three toasts at once: a burst of fills must not cover the page. Where they
    // sit (over the toolbar; above a phone's bottom bar) is in styles.css.
    <AntApp component={false} message={{ maxCount: 3, top: TOAST_TOP }}>
      <Register />
    </AntApp>
  );
}
