import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import './app/styles.css';
import { applyStoredLanguage } from './shared/language';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

// A kept language (English, 简体中文) is loaded before the first screen; the default texts
// need nothing.
void applyStoredLanguage().then(() =>
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
