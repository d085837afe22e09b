import { createRoot } from 'react-dom/client';
import '@persona/web-kit/styles/tokens.css';
import '@persona/web-kit/styles/base.css';
import './styles/admin.css';
import { App } from './app/app';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');
createRoot(container).render(<App />);
