import { BrowserRouter } from 'react-router';
import { AppProvider } from './provider';
import { AppRoutes } from './router';

/** The app without its router: the browser wraps it in BrowserRouter, the prerender in a MemoryRouter. */
export function AppTree() {
  return (
    <AppProvider>
      <AppRoutes />
    </AppProvider>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <AppTree />
    </BrowserRouter>
  );
}
