import { useEffect } from 'react';
import { describeError } from '../../api/errors.js';
import { useApp } from '../../app/context.js';
import type { ScreenProps } from '../../app/screen.js';
import { Spinner } from '../../components/Spinner.js';
import { pushFiltered, resolveEntity } from './entity-link.js';

/**
 * A stop on the way to an entity's screen: it finds where the entity is
 * shown and takes its own place on the nav stack with that screen, so Esc
 * goes straight back to where the jump started.
 */
export function GotoScreen({ entry }: ScreenProps) {
  const { screens, client, nav, views, session } = useApp();
  const { type = '', id = '', label = '' } = entry.params;
  useEffect(() => {
    let live = true;
    const leave = () => nav.setState((s) => ({ stack: s.stack.filter((e) => e.key !== entry.key) }));
    resolveEntity(screens, client, type, id, label).then(
      (to) => {
        if (!live) return;
        if ('error' in to) {
          leave();
          session.getState().notify(to.error, 'error');
          return;
        }
        pushFiltered(nav, views, to.screen, to.params, entry.label ?? label, to.filter);
        leave();
      },
      (err: unknown) => {
        if (!live) return;
        leave();
        session.getState().notify(`Cannot open ${type} ${label}: ${describeError(err)}`, 'error');
      },
    );
    return () => {
      live = false;
    };
  }, [entry.key]);
  return <Spinner label={`opening ${type.replace(/_/g, ' ')} ${label}…`} />;
}
