// Catches what a page throws while rendering (or a page's code that failed to load) and
// shows RouteError in its place; the next navigation tries again.
import { Component, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { RouteError } from './route-error';

interface BoundaryProps {
  resetKey: string;
  children: ReactNode;
}
interface BoundaryState {
  error: unknown;
  failed: boolean;
  key: string;
}

class Boundary extends Component<BoundaryProps, BoundaryState> {
  state: BoundaryState = { error: null, failed: false, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error, failed: true };
  }

  /** While nothing failed it follows the location; once something did, a new location clears it. */
  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    if (props.resetKey === state.key) return null;
    return state.failed ? { error: null, failed: false, key: props.resetKey } : { key: props.resetKey };
  }

  componentDidCatch(error: unknown) {
    console.error(error);
  }

  render() {
    return this.state.failed ? <RouteError error={this.state.error} /> : this.props.children;
  }
}

export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  return <Boundary resetKey={useLocation().key}>{children}</Boundary>;
}
