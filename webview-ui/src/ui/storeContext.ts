/**
 * The view store through Preact context, and the hooks that read it: a component selects what it
 * needs and re-renders exactly when that value changes (by `equal`, `Object.is` unless told), with
 * no list or parent having to know what it reads. Like React's useSyncExternalStore, on preact/hooks.
 */
import { createContext } from 'preact';
import { useContext, useLayoutEffect, useReducer, useRef } from 'preact/hooks';
import type { Store, ViewState, ViewStore } from '../state/viewStore';
import type { ViewSession } from '../state/viewSession';

export const ViewStoreContext = createContext<ViewStore | null>(null);
/** The panel's session, for what the user does that only it can (the message queue's actions). */
export const ViewSessionContext = createContext<ViewSession | null>(null);

export function useViewSession(): ViewSession {
  const session = useContext(ViewSessionContext);
  if (!session) throw new Error('no view session: render inside <ViewSessionContext.Provider>');
  return session;
}

export function useViewStore(): ViewStore {
  const store = useContext(ViewStoreContext);
  if (!store) throw new Error('no view store: render inside <ViewStoreContext.Provider>');
  return store;
}

/** `select(store state)`, kept current: the component re-renders when the selected value changes. */
export function useSelected<S extends object, T>(store: Store<S>, select: (s: S) => T, equal: (a: T, b: T) => boolean = Object.is): T {
  const [, changed] = useReducer((n: number) => n + 1, 0);
  const value = select(store.get());
  // The latest selector and value, for the listener (the selector may close over new props).
  const latest = useRef({ select, equal, value });
  latest.current = { select, equal, value };
  useLayoutEffect(() => {
    const check = (): void => {
      const l = latest.current;
      if (!l.equal(l.select(store.get()), l.value)) changed(0);
    };
    // A change between this render and the subscription is not missed.
    check();
    return store.subscribe(check);
  }, [store]);
  return value;
}

/** A value from the view store in context. */
export function useView<T>(select: (s: ViewState) => T, equal?: (a: T, b: T) => boolean): T {
  return useSelected(useViewStore(), select, equal);
}

/** Equality for selectors that build an array: same length, same items. */
export function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
}
